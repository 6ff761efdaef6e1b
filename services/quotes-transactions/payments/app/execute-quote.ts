import { activeTraceparent } from '../../../../lib/bus/event-trace-context';
import { AppError } from '../../../../lib/errors';
import type { Payment } from '../domain/payment';
import type { PlannedChange, SettlementTiming } from '../domain/settlement-plan';
import type { ReserveDailyVolume } from './daily-volume';
import type { Ledger } from '../../ledger/app/ledger';
import type { Caller } from '../../shared/app/payment-accounts';
import type { PaymentStore } from './payment-store';
import { quoteAlreadyExecuted, quoteExpired } from './quote-conflicts';
import { awaitingAuthorization } from './quote-authorization';
import { PaymentMovedOn, type StepRunner } from './step-runner';
import type { WalletAuthorizer } from './wallet-authorizer';

export interface ExecuteQuoteDeps {
  payments: PaymentStore;
  runner: StepRunner;
  ledger: Ledger;
  reserveDailyVolume: ReserveDailyVolume;
  clock: () => Date;
  timing: SettlementTiming;
  wallets?: WalletAuthorizer;
  /** Strong Customer Authentication: an SCA customer's execution is held for authorization. */
  sca?: { holdExecution(caller: Caller, p: Payment, factor?: string): Promise<Payment | undefined> };
}

export interface ExecuteQuoteCommand {
  caller: Caller;
  quoteId: string;
  idempotencyKey?: string;
  walletSignature?: string;
  requestId?: string;
  /** The preferred factor of the SCA challenge the execution may issue. */
  scaFactor?: string;
}

const isEmbeddedWallet = (p: Payment) =>
  p.source.sourceType === 'ACCOUNT' && p.source.internalType === 'EMBEDDED_WALLET';

/** An executed quote answers a repeat carrying the winning Idempotency-Key; anything else is refused. */
function answerExecuted(p: Payment, key: string | undefined): Payment {
  if (key && p.quote?.executionKey === key) return p;
  throw quoteAlreadyExecuted(`Quote ${p.quote!.id} was already executed`, p.id);
}

function executionPlan(p: Payment, now: Date, timing: SettlementTiming): PlannedChange {
  const fromInternal = p.source.sourceType === 'ACCOUNT' && p.source.accountKind === 'INTERNAL';
  return {
    movement: fromInternal ? 'debit' : 'fund',
    change: {
      set: {
        status: 'PROCESSING',
        stage: 'SUBMITTED',
        nextActionAt: new Date(now.getTime() + timing.stepMs).toISOString(),
      },
      events: ['QUOTE.EXECUTED', 'OUTGOING_PAYMENT.PROCESSING'],
    },
    onVoid: {
      set: { status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' },
      unset: ['stage', 'nextActionAt'],
      events: ['QUOTE.EXECUTED', 'OUTGOING_PAYMENT.FAILED'],
    },
  };
}

/**
 * Executes a quote: one quote gives one transaction. The claim (quote.executedAt) is written by
 * the same conditional write that records the debit about to happen, so of concurrent executions
 * exactly one proceeds; the others answer CONFLICT (reason QUOTE_ALREADY_EXECUTED) (or the quote, for a repeat with
 * the winner's Idempotency-Key).
 */
export function createExecuteQuote(deps: ExecuteQuoteDeps) {
  async function execute(command: ExecuteQuoteCommand, p: Payment): Promise<Payment> {
    const now = deps.clock();
    if (p.source.sourceType === 'ACCOUNT' && p.source.accountKind === 'INTERNAL') {
      const [balance] = await deps.ledger.getBalances([p.source.accountId], p.platformId);
      if (balance.available < p.sent.amount) {
        throw new AppError(
          'INSUFFICIENT_BALANCE',
          `The source account holds ${balance.available}, the quote needs ${p.sent.amount}`,
          { available: balance.available },
        );
      }
    }
    await deps.reserveDailyVolume(command.caller, {
      sending: p.sent.currency.code,
      receiving: p.received.currency.code,
      paymentId: p.id,
      amount: p.sent.amount,
    });
    const traceparent = activeTraceparent();
    const claim = {
      quote: {
        ...p.quote!,
        executedAt: now.toISOString(),
        ...(command.idempotencyKey ? { executionKey: command.idempotencyKey } : {}),
      },
      ...(traceparent ? { traceparent } : {}),
    };
    let done: Payment;
    try {
      done = await deps.runner.run(p, executionPlan(p, now, deps.timing), claim);
    } catch (err) {
      if (!(err instanceof PaymentMovedOn)) throw err;
      const fresh = await deps.payments.get(p.platformId, p.id);
      if (fresh?.quote?.executedAt) return answerExecuted(fresh, command.idempotencyKey);
      throw err;
    }
    if (done.status === 'FAILED') {
      throw new AppError(
        'INSUFFICIENT_BALANCE',
        'The source account no longer covers the quote; the transaction failed',
        { transactionId: done.id },
      );
    }
    return done;
  }

  /** Expiry and source checks, then the execution itself. */
  async function checkedExecute(command: ExecuteQuoteCommand, p: Payment): Promise<Payment> {
    if (p.quote!.executedAt) return answerExecuted(p, command.idempotencyKey);
    if (p.status === 'EXPIRED' || deps.clock().getTime() >= Date.parse(p.quote!.expiresAt)) {
      throw quoteExpired(p.quote!);
    }
    if (p.status === 'PENDING_AUTHORIZATION') throw awaitingAuthorization(p);
    if (p.source.sourceType === 'REALTIME_FUNDING') {
      throw AppError.invalidInput('A realtime-funded quote is executed by paying its paymentInstructions', [
        { field: 'quoteId', message: 'fund it as instructed (in the sandbox: POST /sandbox/send)' },
      ]);
    }
    const held = deps.sca && !isEmbeddedWallet(p)
      ? await deps.sca.holdExecution(command.caller, p, command.scaFactor)
      : undefined;
    return held ?? execute(command, p);
  }

  /**
   * From an embedded wallet the stamp is verified first. The identical signed retry of an execution
   * answers its outcome (the executed quote, or the error it settled with), never a second execution.
   */
  async function authorized(command: ExecuteQuoteCommand, p: Payment): Promise<Payment> {
    if (!deps.wallets) throw new AppError('UNAVAILABLE', 'Embedded-wallet authorization is not available');
    const accountId = (p.source as { accountId: string }).accountId;
    const requestId = command.requestId ?? p.quote!.walletRequestId;
    const claim = await deps.wallets.authorize(command.caller, {
      quoteId: p.quote!.id,
      accountId,
      stamp: command.walletSignature,
      requestId,
    });
    if (claim.state !== 'CLAIMED') return (await deps.payments.get(p.platformId, p.id)) ?? p;
    try {
      const done = await checkedExecute(command, p);
      await deps.wallets.settle(command.caller, claim.requestId, { transactionId: done.id });
      return done;
    } catch (err) {
      const error = err instanceof AppError ? err : new AppError('INTERNAL_ERROR', 'An internal error occurred');
      await deps.wallets.settle(command.caller, claim.requestId, {
        errorCode: error.code,
        errorMessage: error.message,
      });
      throw err;
    }
  }

  return async function executeQuote(command: ExecuteQuoteCommand): Promise<Payment> {
    const p = await deps.payments.getByQuote(command.caller.platformId, command.quoteId);
    if (!p?.quote) throw new AppError('QUOTE_NOT_FOUND', `Quote ${command.quoteId} not found`);
    return isEmbeddedWallet(p) ? authorized(command, p) : checkedExecute(command, p);
  };
}

export type ExecuteQuote = ReturnType<typeof createExecuteQuote>;
