import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import type { NewEvent } from '../../../../lib/bus/outbox';
import type { RateSource } from '../../rates/adapters/rate-source';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import { cryptoNetworkOf } from '../domain/crypto-networks';
import { breakdown, NO_FEE } from '../domain/fees';
import { paymentReference } from '../domain/funding-instructions';
import { applicableLimits, assertWithinSingleTransactionLimits } from '../domain/limits';
import type { Payment } from '../domain/payment';
import { movement } from '../domain/payment-movements';
import { requestHash } from '../domain/request-hash';
import { outcomeForAmount } from '../domain/sandbox-outcomes';
import type { SettlementTiming } from '../domain/settlement-plan';
import { parseTransferRequest, type TransferRequest, type TransferRequestMessage } from '../domain/transfer-request';
import type { ReserveDailyVolume } from './daily-volume';
import { sameRequestOrConflict } from './idempotency';
import type { Ledger } from '../../ledger/app/ledger';
import { customerDeleted, type Caller, type PaymentAccounts } from '../../shared/app/payment-accounts';
import { paymentEvents } from './payment-events';
import type { PaymentSettingsSource } from '../../shared/app/payment-settings';
import { IdempotencyKeyTaken, type PaymentStore } from './payment-store';
import { assertVerifiedIfRequired } from './quote-checks';
import type { StepRunner } from './step-runner';

export interface TransferDeps {
  accounts: PaymentAccounts;
  ledger: Ledger;
  payments: PaymentStore;
  runner: StepRunner;
  settings: PaymentSettingsSource;
  reserveDailyVolume: ReserveDailyVolume;
  rates: RateSource;
  newEvent: NewEvent;
  clock: () => Date;
  timing: SettlementTiming;
}

const invalid = (field: string, message: string) => AppError.invalidInput(message, [{ field, message }]);

/**
 * The deprecated same-currency transfers. Transfer-out debits the internal account at once and
 * pays out asynchronously; transfer-in pulls from the external account and credits on settlement.
 */
export function createTransfers(deps: TransferDeps) {
  async function parties(caller: Caller, t: TransferRequest) {
    const [internal, external] = await Promise.all([
      deps.accounts.internalAccount(caller, t.internalAccountId),
      deps.accounts.externalAccount(caller, t.externalAccountId),
    ]);
    const side = t.direction === 'IN'
      ? { internal: 'destination', external: 'source' }
      : { internal: 'source', external: 'destination' };
    if (!internal) throw new AppError('REFERENCE_NOT_FOUND', `Internal account ${t.internalAccountId} not found`);
    if (!external) throw new AppError('REFERENCE_NOT_FOUND', `External account ${t.externalAccountId} not found`);
    if (internal.status !== 'ACTIVE') {
      throw invalid(`${side.internal}.accountId`, `The internal account is ${internal.status}`);
    }
    if (external.status === 'INACTIVE') throw invalid(`${side.external}.accountId`, 'The external account is inactive');
    if (external.customerId && external.customerId !== internal.customerId) {
      throw invalid(`${side.external}.accountId`, 'belongs to another customer than the internal account');
    }
    if (internal.currency !== external.currency) {
      throw new AppError(
        'INVALID_CURRENCY',
        `A same-currency transfer cannot move ${internal.currency} to a ${external.currency} account`,
      );
    }
    if (t.paymentRail && external.paymentRails.length && !external.paymentRails.includes(t.paymentRail)) {
      throw invalid('destination.paymentRail', `must be one of ${external.paymentRails.join(', ')}`);
    }
    const currency = findCurrency(internal.currency);
    if (!currency) throw new AppError('INVALID_CURRENCY', `${internal.currency} is not supported`);
    const customer = internal.customerId ? await deps.accounts.customer(caller, internal.customerId) : null;
    // The account exists, so its missing owner was deleted: its accounts move no money any more.
    if (internal.customerId && !customer) throw customerDeleted(internal.id);
    if (t.direction === 'OUT' && customer?.kycBlocksPayments) {
      throw new AppError('USER_NOT_READY', `Customer ${customer.id} is not verified to send payments (KYC/KYB)`, {
        customerId: customer.id,
      });
    }
    return {
      internal,
      external,
      currency,
      customerId: customer?.id ?? caller.platformId,
      platformCustomerId: customer?.platformCustomerId ?? caller.platformId,
    };
  }

  async function build(
    caller: Caller,
    t: TransferRequest,
    idempotency?: Payment['idempotency'],
    agentId?: string,
  ): Promise<Payment> {
    const { internal, external, currency, customerId, platformCustomerId } = await parties(caller, t);
    const settings = await deps.settings.get(caller);
    assertWithinSingleTransactionLimits(applicableLimits(settings.limits, currency.code, currency.code), t.amount);
    const now = deps.clock();
    const id = newId('Transaction');
    const money = { amount: t.amount, currency };
    const network = cryptoNetworkOf(external.accountType);
    const externalEnd = {
      accountId: external.id,
      accountKind: 'EXTERNAL',
      currency: currency.code,
      ...(network ? { cryptoNetwork: network } : {}),
    } as const;
    const out = t.direction === 'OUT';
    if (out) await assertVerifiedIfRequired(deps.rates, external.status, money);
    return {
      id,
      platformId: caller.platformId,
      version: 1,
      type: out ? 'OUTGOING' : 'INCOMING',
      status: 'PENDING',
      customerId,
      platformCustomerId,
      ...(agentId ? { agentId } : {}),
      source: out
        ? {
          sourceType: 'ACCOUNT',
          accountId: internal.id,
          accountKind: 'INTERNAL',
          internalType: internal.type,
          currency: currency.code,
          ...(internal.customerId ? { customerId: internal.customerId } : {}),
        }
        : { sourceType: 'ACCOUNT', ...externalEnd },
      destination: out
        ? { destinationType: 'ACCOUNT', ...externalEnd, ...(t.paymentRail ? { paymentRail: t.paymentRail } : {}) }
        : { destinationType: 'ACCOUNT', accountId: internal.id, accountKind: 'INTERNAL', currency: currency.code },
      sent: money,
      received: money,
      exchangeRate: 1,
      fees: breakdown(t.amount, NO_FEE, NO_FEE),
      ...(t.remittanceInformation ? { remittanceInformation: t.remittanceInformation } : {}),
      ...(t.purposeOfPayment ? { purposeOfPayment: t.purposeOfPayment } : {}),
      ...(t.paymentRail ? { paymentRail: t.paymentRail } : {}),
      reference: paymentReference(id),
      sandboxOutcome: outcomeForAmount(t.amount),
      stage: 'SUBMITTED',
      nextActionAt: new Date(now.getTime() + deps.timing.stepMs).toISOString(),
      appliedSteps: [],
      ...(idempotency ? { idempotency } : {}),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
  }

  async function insert(p: Payment, kinds: string[], hash?: string): Promise<Payment | undefined> {
    try {
      await deps.payments.insert(p, paymentEvents(deps.newEvent, p, kinds));
      return undefined;
    } catch (err) {
      if (!(err instanceof IdempotencyKeyTaken)) throw err;
      return sameRequestOrConflict((await deps.payments.getByIdempotencyKey(p.platformId, err.key))!, hash!);
    }
  }

  return async function createTransfer(
    command: {
      caller: Caller;
      direction: 'IN' | 'OUT';
      body: TransferRequestMessage;
      idempotencyKey?: string;
      agentId?: string;
    },
  ): Promise<Payment> {
    const t = parseTransferRequest(command.direction, command.body);
    const idempotency = command.idempotencyKey
      ? { key: command.idempotencyKey, hash: requestHash({ direction: t.direction, body: command.body }) }
      : undefined;
    if (idempotency) {
      const earlier = await deps.payments.getByIdempotencyKey(command.caller.platformId, idempotency.key);
      if (earlier) return sameRequestOrConflict(earlier, idempotency.hash);
    }
    const p = await build(command.caller, t, idempotency, command.agentId);
    if (t.direction === 'IN') return (await insert(p, ['INCOMING_PAYMENT.PENDING'], idempotency?.hash)) ?? p;

    const [balance] = await deps.ledger.getBalances([t.internalAccountId], p.platformId);
    if (balance.available < t.amount) {
      throw new AppError(
        'INSUFFICIENT_BALANCE',
        `The account holds ${balance.available}, the transfer needs ${t.amount}`,
        { available: balance.available },
      );
    }
    await deps.reserveDailyVolume(command.caller, {
      sending: p.sent.currency.code,
      receiving: p.received.currency.code,
      paymentId: p.id,
      amount: t.amount,
    });
    const debit = movement(p, 'debit');
    const intent: Payment = {
      ...p,
      pendingStep: {
        ...debit,
        startedAt: p.createdAt,
        then: { set: { status: 'PROCESSING' }, events: ['OUTGOING_PAYMENT.PROCESSING'] },
        onVoid: {
          set: { status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' },
          unset: ['stage', 'nextActionAt'],
          events: ['OUTGOING_PAYMENT.FAILED'],
        },
      },
    };
    const earlier = await insert(intent, [], idempotency?.hash);
    if (earlier) return earlier;
    const done = await deps.runner.finish(intent);
    if (done.status === 'FAILED') {
      throw new AppError('INSUFFICIENT_BALANCE', 'The account no longer covers the transfer; the transaction failed', {
        transactionId: done.id,
      });
    }
    return done;
  };
}

export type CreateTransfer = ReturnType<typeof createTransfers>;
