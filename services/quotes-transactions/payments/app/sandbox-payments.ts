import { awaitingAuthorization } from './quote-authorization';
import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import type { NewEvent } from '../../../../lib/bus/outbox';
import type {
  SimulateSendRequest,
  SimulateUmaReceiveRequest,
} from '../../../../gen/quotes_transactions/v1/payments_sandbox';
import { MissingMembers } from '../domain/quote-request';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import { breakdown, NO_FEE } from '../domain/fees';
import { paymentReference } from '../domain/funding-instructions';
import { ledgerStep, systemAccount } from '../../ledger/domain/ledger-postings';
import { isMinorAmount, MAX_SANDBOX_FUNDING } from '../../shared/domain/money';
import type { Payment } from '../domain/payment';
import { quoteAlreadyExecuted, quoteExpired } from './quote-conflicts';
import { movement } from '../domain/payment-movements';
import { APPROVAL_REQUESTED_EVENT, type ApprovalWindows } from '../domain/incoming-payment-approval';
import { asksReceiverInfo, outcomeForIncoming, SANDBOX_REQUESTED_RECEIVER_FIELDS } from '../domain/sandbox-outcomes';
import { sandboxOnChain, type SettlementTiming } from '../domain/settlement-plan';
import type { ReserveDailyVolume } from './daily-volume';
import type { Balance, Ledger } from '../../ledger/app/ledger';
import { customerDeleted, type Caller, type PaymentAccounts } from '../../shared/app/payment-accounts';
import type { PaymentStore } from './payment-store';
import { requireCurrency } from './quote-parties';
import { PaymentMovedOn, type StepRunner } from './step-runner';

export interface SandboxDeps {
  enabled: boolean;
  accounts: PaymentAccounts;
  ledger: Ledger;
  payments: PaymentStore;
  runner: StepRunner;
  reserveDailyVolume: ReserveDailyVolume;
  newEvent: NewEvent;
  clock: () => Date;
  timing: SettlementTiming;
  /**
   * Whether the platform is asked to approve an incoming UMA payment (it has a webhook endpoint to
   * answer the incoming-payment webhook); absent: never asked.
   */
  asksApproval?: (platformId: string) => Promise<boolean>;
  approvalWindows?: ApprovalWindows;
}

export { MAX_SANDBOX_FUNDING };

function amountOf(value: number | undefined, max: number, field: string): number {
  if (!isMinorAmount(value) || value > max) {
    throw new AppError('INVALID_AMOUNT', `${field} must be an integer between 1 and ${max} (minor units)`);
  }
  return value;
}

/** Sandbox money movement: funding accounts, paying a realtime-funded quote, receiving an UMA payment. */
export function createSandboxPayments(deps: SandboxDeps) {
  const later = (now: Date) => new Date(now.getTime() + deps.timing.stepMs).toISOString();
  const ensureSandbox = () => {
    if (!deps.enabled) throw new AppError('FORBIDDEN', 'Sandbox operations are not available on this platform');
  };

  async function fundInternalAccount(caller: Caller, accountId: string, body: { amount?: number }): Promise<Balance> {
    ensureSandbox();
    const m = new MissingMembers();
    const amount = m.need(body.amount, 'amount');
    m.done('Invalid funding request');
    const funded = amountOf(amount, MAX_SANDBOX_FUNDING, 'amount');
    const account = await deps.accounts.internalAccount(caller, accountId);
    if (!account) throw new AppError('REFERENCE_NOT_FOUND', `Internal account ${accountId} not found`);
    if (account.customerId && !(await deps.accounts.customer(caller, account.customerId))) {
      throw customerDeleted(accountId);
    }
    await deps.ledger.assertCreditFits(caller.platformId, account.id, account.currency, funded);
    const settlement = systemAccount('settlement', account.currency, caller.platformId);
    const result = await deps.ledger.post(
      caller.platformId,
      ledgerStep(`${newId('Operation')}/fund`, [
        { account: account.id, currency: account.currency, amount: funded },
        { account: settlement, currency: account.currency, amount: -funded },
      ]),
    );
    if (result === 'VOIDED') throw customerDeleted(accountId);
    return (await deps.ledger.getBalances([account.id], caller.platformId))[0];
  }

  async function simulateSend(caller: Caller, body: Partial<SimulateSendRequest>): Promise<Payment> {
    ensureSandbox();
    const m = new MissingMembers();
    const quoteId = m.need(body.quoteId, 'quoteId');
    const currencyCode = m.need(body.currencyCode, 'currencyCode');
    const currencyAmount = body.currencyAmount;
    m.done('Invalid sandbox send request');
    const p = await deps.payments.getByQuote(caller.platformId, quoteId!);
    if (!p?.quote) throw new AppError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
    if (p.source.sourceType !== 'REALTIME_FUNDING') {
      throw AppError.invalidInput('The quote is not funded by payment instructions', [{
        field: 'quoteId',
        message: 'execute it with POST /quotes/{quoteId}/execute',
      }]);
    }
    if (currencyCode !== p.sent.currency.code) {
      throw new AppError('INVALID_CURRENCY', `The quote expects ${p.sent.currency.code}, not ${currencyCode}`);
    }
    if (currencyAmount !== undefined && currencyAmount !== p.sent.amount) {
      throw new AppError('INVALID_AMOUNT', `The quote expects exactly ${p.sent.amount}`, { expected: p.sent.amount });
    }
    if (p.quote.executedAt) throw quoteAlreadyExecuted(`Quote ${p.quote.id} was already funded`, p.id);
    if (p.status === 'PENDING_AUTHORIZATION') throw awaitingAuthorization(p);
    const now = deps.clock();
    if (p.status === 'EXPIRED' || now.getTime() >= Date.parse(p.quote.expiresAt)) throw quoteExpired(p.quote);
    await deps.reserveDailyVolume(caller, {
      sending: p.sent.currency.code,
      receiving: p.received.currency.code,
      paymentId: p.id,
      amount: p.sent.amount,
    });
    const network = p.source.cryptoNetwork && p.source.cryptoNetwork !== 'LIGHTNING'
      ? p.source.cryptoNetwork
      : undefined;
    try {
      return await deps.runner.run(p, {
        movement: 'fund',
        change: {
          set: {
            status: 'PROCESSING',
            stage: 'SUBMITTED',
            nextActionAt: later(now),
            ...(network ? { sourceOnChain: sandboxOnChain(p, 'source', network) } : {}),
          },
          events: ['QUOTE.EXECUTED', 'OUTGOING_PAYMENT.PROCESSING'],
        },
      }, { quote: { ...p.quote, executedAt: now.toISOString() } });
    } catch (err) {
      if (err instanceof PaymentMovedOn) throw quoteAlreadyExecuted(`Quote ${p.quote.id} was already funded`, p.id);
      throw err;
    }
  }

  async function simulateUmaReceive(caller: Caller, body: Partial<SimulateUmaReceiveRequest>): Promise<Payment> {
    ensureSandbox();
    const m = new MissingMembers();
    const sender = m.need(body.senderUmaAddress, 'senderUmaAddress');
    const { receiverUmaAddress: receiver, customerId } = body;
    const code = m.need(body.receivingCurrencyCode, 'receivingCurrencyCode');
    const rawAmount = m.need(body.receivingCurrencyAmount, 'receivingCurrencyAmount');
    if (!receiver && !customerId) {
      m.errors.push({ field: 'customerId', message: 'customerId or receiverUmaAddress is required' });
    }
    m.done('Invalid sandbox receive request');
    const amount = amountOf(rawAmount, MAX_SANDBOX_FUNDING, 'receivingCurrencyAmount');
    const customer = customerId
      ? await deps.accounts.customer(caller, customerId)
      : await deps.accounts.customerByUmaAddress(caller, receiver!);
    if (!customer) throw new AppError('USER_NOT_FOUND', `Receiver ${customerId ?? receiver} not found`);
    if (customerId && receiver && customer.umaAddress !== receiver) {
      throw AppError.invalidInput('The receiver does not match', [{
        field: 'receiverUmaAddress',
        message: `is not the UMA address of ${customerId}`,
      }]);
    }
    requireCurrency(code!, 'Receiving currency');
    const account = await deps.accounts.customerAccount(caller, customer.id, code!);
    if (!account) throw new AppError('INVALID_CURRENCY', `The customer holds no ${code} account`);
    const now = deps.clock();
    const id = newId('Transaction');
    const money = { amount, currency: findCurrency(code!)! };
    const outcome = outcomeForIncoming(sender!, amount);
    // `$approval…` senders wait for POST /transactions/{id}/approve or /reject whatever the webhook answers (the
    // sandbox's way to try them).
    const awaiting = outcome.kind === 'AWAITS_APPROVAL';
    const asking = !awaiting && deps.approvalWindows !== undefined
      && (await deps.asksApproval?.(caller.platformId)) === true;
    const p: Payment = {
      id,
      platformId: caller.platformId,
      version: 1,
      type: 'INCOMING',
      status: 'CREATED',
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: sender!, currency: code! },
      destination: { destinationType: 'ACCOUNT', accountId: account.id, accountKind: 'INTERNAL', currency: code! },
      sent: money,
      received: money,
      exchangeRate: 1,
      fees: breakdown(amount, NO_FEE, NO_FEE),
      counterpartyInformation: { FULL_NAME: 'Sandbox Sender' },
      reference: paymentReference(id),
      sandboxOutcome: outcome,
      stage: awaiting || asking ? 'AWAITING_APPROVAL' : 'SUBMITTED',
      ...(awaiting || asking ? {} : { nextActionAt: later(now) }),
      ...(asking ? { approval: { phase: 'WEBHOOK' as const } } : {}),
      ...(asking && asksReceiverInfo(sender!) ? { requestedReceiverFields: SANDBOX_REQUESTED_RECEIVER_FIELDS } : {}),
      appliedSteps: [],
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    // CREATED until its funds are in (the `receive` step): a crash in between is rolled forward.
    const arrived = asking
      ? {
        set: {
          status: 'PENDING' as const,
          nextActionAt: new Date(now.getTime() + deps.approvalWindows!.webhookAnswerMs).toISOString(),
        },
        events: [APPROVAL_REQUESTED_EVENT],
      }
      : { set: { status: 'PENDING' as const }, events: ['INCOMING_PAYMENT.PENDING'] };
    const intent: Payment = { ...p, pendingStep: { ...movement(p, 'receive'), startedAt: p.createdAt, then: arrived } };
    await deps.payments.insert(intent, []);
    return deps.runner.finish(intent);
  }

  return { fundInternalAccount, simulateSend, simulateUmaReceive };
}

export type SandboxPayments = ReturnType<typeof createSandboxPayments>;
