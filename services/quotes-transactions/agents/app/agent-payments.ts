import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import {
  assertWithinPerTransactionLimit,
  needsApproval,
  requireAllowedAccount,
  requireAllowedPayee,
  requirePermission,
  type ActingAgent,
} from '../domain/agent-policy';
import type { Payment } from '../../payments/domain/payment';
import { requestHash } from '../../payments/domain/request-hash';
import { parseTransferRequest, type TransferRequestMessage } from '../../payments/domain/transfer-request';
import type { CreateQuote } from '../../payments/app/create-quote';
import type { Caller, PartiesSnapshot, PaymentAccounts } from '../../shared/app/payment-accounts';
import type { PaymentStore } from '../../payments/app/payment-store';
import type { TransactionQueries } from '../../payments/app/transactions-query';
import { quoteAlreadyExecuted, quoteExpired } from '../../payments/app/quote-conflicts';
import { actionIdFor, type AgentActionRunner } from './agent-action-runner';
import {
  AgentActionExists,
  type AgentAction,
  type AgentActionStore,
  type AgentActionType,
  type TransferDetails,
} from './agent-action-store';
import type { AgentUsage } from './agent-usage';

export interface AgentPaymentsDeps {
  accounts: PaymentAccounts;
  payments: PaymentStore;
  actions: AgentActionStore;
  usage: AgentUsage;
  runner: AgentActionRunner;
  createQuote: CreateQuote;
  clock: () => Date;
  /** The platform's quote reads, whose SCA session rule an agent's read of a quote follows too. */
  queries: Pick<TransactionQueries, 'gateOne'>;
}

/**
 * An agent's Idempotency-Key names one request: a repeat of it answers the action, anything else
 * (another amount, direction or quote) is refused, even once the gateway's record of the key is gone.
 */
function sameRequestOrReused(
  earlier: AgentAction,
  draft: Pick<Draft, 'type' | 'quoteId' | 'transferBody'>,
): AgentAction {
  const same = earlier.type === draft.type && earlier.quoteId === draft.quoteId
    && (draft.transferBody === undefined
      || (earlier.transferBody !== undefined && requestHash(earlier.transferBody) === requestHash(draft.transferBody)));
  if (same) return earlier;
  throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for another request', {
    reason: earlier.type === draft.type ? 'OTHER_BODY' : 'OTHER_OPERATION',
  });
}

interface Draft {
  type: AgentActionType;
  platformCustomerId: string;
  internalAccountId?: string;
  amount: number;
  currency: string;
  paymentId?: string;
  quoteId?: string;
  transferBody?: Record<string, unknown>;
  transferDetails?: TransferDetails;
}

type End = { accountId?: string } | undefined;

/** A submitted action, and the payment it made when it was executed at once (its record needs no second read). */
export interface Submitted {
  action: AgentAction;
  payment?: Payment;
}

/** An agent's transfer between its customer's internal account and an external one. */
interface AgentTransfer {
  caller: Caller;
  agent: ActingAgent;
  direction: 'IN' | 'OUT';
  body: TransferRequestMessage;
  idempotencyKey?: string;
}

/**
 * What an agent pays: quotes of its customer, their execution and transfers. Each payment is an
 * AgentAction: its amount is counted against the limits when submitted, then it is executed at
 * once (AUTO) or waits, PENDING_APPROVAL, for the platform.
 */
export function createAgentPayments(deps: AgentPaymentsDeps) {
  /** The accounts in `found`, each the agent's customer's (NOT_FOUND exactly as a missing one) and allowed to it. */
  function ownedIn(found: PartiesSnapshot, agent: ActingAgent, ids: string[]) {
    const internal = (id: string) => id.startsWith('InternalAccount:');
    return ids.map((id) => {
      const account = internal(id) ? found.internalAccounts.get(id) : found.externalAccounts.get(id);
      if (!account || account.customerId !== agent.customerId) {
        throw new AppError('REFERENCE_NOT_FOUND', `${internal(id) ? 'Internal' : 'External'} account ${id} not found`);
      }
      if (internal(id)) requireAllowedAccount(agent, id);
      return account;
    });
  }

  /**
   * The customer's accounts and the customer, in one read; an account of another customer is
   * NOT_FOUND exactly as a missing one.
   */
  async function owned(caller: Caller, agent: ActingAgent, accountIds: Array<string | undefined>) {
    const ids = accountIds.filter((id): id is string => !!id);
    const internal = (id: string) => id.startsWith('InternalAccount:');
    const found = await deps.accounts.parties(caller, {
      internalAccountIds: ids.filter(internal),
      externalAccountIds: ids.filter((id) => !internal(id)),
      customerIds: [agent.customerId],
      withSettings: false,
    });
    return { accounts: ownedIn(found, agent, ids), customer: found.customers.get(agent.customerId) };
  }

  async function createQuote(
    caller: Caller,
    agent: ActingAgent,
    body: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<Payment> {
    requirePermission(agent, 'CREATE_QUOTES');
    if (body.immediatelyExecute) {
      throw AppError.invalidInput('Agents execute quotes with POST /agents/me/quotes/{quoteId}/execute', [{
        field: 'immediatelyExecute',
        message: 'is not available to agents',
      }]);
    }
    const source = body.source as { sourceType?: string; accountId?: string; customerId?: string } | undefined;
    if (source?.sourceType === 'REALTIME_FUNDING') {
      if (source.customerId && source.customerId !== agent.customerId) {
        throw new AppError('USER_NOT_FOUND', `Customer ${source.customerId} not found`);
      }
      source.customerId = agent.customerId;
    }
    const destination = body.destination as { destinationType?: string; accountId?: string } | undefined;
    requireAllowedPayee(destination?.destinationType);
    const ends = [
      source?.sourceType === 'REALTIME_FUNDING' ? undefined : source?.accountId,
      destination?.destinationType === 'UMA_ADDRESS' ? undefined : destination?.accountId,
    ].filter((id): id is string => !!id);
    // Checked on the quote's own read of the parties: one read of the accounts service, not two.
    return deps.createQuote({
      caller,
      body,
      agentId: agent.agentId,
      partiesCheck: (found) => {
        ownedIn(found, agent, ends);
      },
      ...(idempotencyKey ? { idempotencyKey: `agent:${agent.agentId}:${idempotencyKey}` } : {}),
    });
  }

  async function ownQuote(caller: Caller, agent: ActingAgent, quoteId: string): Promise<Payment> {
    const p = await deps.payments.getByQuote(caller.platformId, quoteId);
    if (!p?.quote || p.agentId !== agent.agentId) throw new AppError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
    return p;
  }

  /** Read as GET /quotes/{id} reads it, once known to be this agent's (another's answers 404, never 409). */
  const getQuote = async (caller: Caller, agent: ActingAgent, quoteId: string): Promise<Payment> =>
    deps.queries.gateOne(caller, await ownQuote(caller, agent, quoteId));

  async function submit(caller: Caller, agent: ActingAgent, draft: Draft, idempotencyKey?: string): Promise<Submitted> {
    const id = idempotencyKey ? actionIdFor(agent.agentId, idempotencyKey) : newId('AgentAction');
    // Only a key can name an earlier action: a new id names none.
    const earlier = idempotencyKey ? await deps.actions.get(caller.platformId, id) : null;
    if (earlier) return { action: sameRequestOrReused(earlier, draft) };
    requireAllowedAccount(agent, draft.internalAccountId);
    const { spendingLimits, approvalThresholds } = agent.policy;
    const counted = await deps.runner.convert(draft.amount, draft.currency, spendingLimits.currency);
    assertWithinPerTransactionLimit(agent, draft.internalAccountId, counted);
    const thresholdAmount = approvalThresholds?.amount === undefined
      ? undefined
      : await deps.runner.convert(draft.amount, draft.currency, approvalThresholds.currency ?? spendingLimits.currency);
    const approval = needsApproval(agent, draft.internalAccountId, thresholdAmount);

    const now = deps.clock().toISOString();
    const action: AgentAction = {
      id,
      platformId: caller.platformId,
      agentId: agent.agentId,
      customerId: agent.customerId,
      platformCustomerId: draft.platformCustomerId,
      status: approval ? 'PENDING_APPROVAL' : 'APPROVED',
      type: draft.type,
      ...(approval ? {} : { executing: true }),
      ...(draft.paymentId ? { paymentId: draft.paymentId } : {}),
      ...(draft.quoteId ? { quoteId: draft.quoteId, quoteClaim: draft.quoteId } : {}),
      ...(draft.transferBody ? { transferBody: draft.transferBody } : {}),
      ...(draft.transferDetails ? { transferDetails: draft.transferDetails } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
      createdAt: now,
      updatedAt: now,
    };
    const events = approval ? [await deps.runner.pendingEvent(action)] : [];
    // Recorded with its count before anything is paid: the record claims the quote, and a crash after it is finished
    // by the recovery.
    try {
      await deps.usage.reserve(agent, {
        actionId: id,
        amount: counted,
        fresh: !idempotencyKey,
        record: (usageReservation) => deps.actions.insert({ ...action, usageReservation }, events),
      });
    } catch (err) {
      if (!(err instanceof AgentActionExists)) throw err;
      const same = await deps.actions.get(caller.platformId, id);
      if (same) return { action: sameRequestOrReused(same, draft) };
      throw quoteAlreadyExecuted(`Quote ${draft.quoteId} was already submitted`);
    }
    if (approval) return { action };
    const { error, ...executed } = await deps.runner.execute(caller, action);
    if (error) throw error;
    return executed;
  }

  async function executeQuote(
    caller: Caller,
    agent: ActingAgent,
    quoteId: string,
    idempotencyKey?: string,
  ): Promise<Submitted> {
    requirePermission(agent, 'EXECUTE_QUOTES');
    const p = await ownQuote(caller, agent, quoteId);
    if (idempotencyKey) {
      const earlier = await deps.actions.get(caller.platformId, actionIdFor(agent.agentId, idempotencyKey));
      if (earlier) return { action: sameRequestOrReused(earlier, { type: 'EXECUTE_QUOTE', quoteId }) };
    }
    if (p.quote!.executedAt) throw quoteAlreadyExecuted(`Quote ${quoteId} was already executed`, p.id);
    if (p.status === 'EXPIRED' || deps.clock().getTime() >= Date.parse(p.quote!.expiresAt)) {
      throw quoteExpired(p.quote!);
    }
    const internalAccountId = p.source.sourceType === 'ACCOUNT' && p.source.accountKind === 'INTERNAL'
      ? p.source.accountId
      : p.destination.destinationType === 'ACCOUNT' && p.destination.accountKind === 'INTERNAL'
      ? p.destination.accountId
      : undefined;
    return submit(caller, agent, {
      type: 'EXECUTE_QUOTE',
      platformCustomerId: p.platformCustomerId,
      internalAccountId,
      amount: p.sent.amount,
      currency: p.sent.currency.code,
      paymentId: p.id,
      quoteId,
    }, idempotencyKey);
  }

  async function transfer({ caller, agent, direction, body, idempotencyKey }: AgentTransfer): Promise<Submitted> {
    requirePermission(agent, 'CREATE_TRANSFERS');
    const t = parseTransferRequest(direction, body);
    const { accounts: [internal], customer } = await owned(caller, agent, [t.internalAccountId, t.externalAccountId]);
    const [sourceAccountId, destinationAccountId] = direction === 'OUT'
      ? [t.internalAccountId, t.externalAccountId]
      : [t.externalAccountId, t.internalAccountId];
    return submit(caller, agent, {
      type: direction === 'OUT' ? 'TRANSFER_OUT' : 'TRANSFER_IN',
      platformCustomerId: customer?.platformCustomerId ?? agent.customerId,
      internalAccountId: t.internalAccountId,
      amount: t.amount,
      currency: internal.currency,
      transferBody: JSON.parse(JSON.stringify(body)) as Record<string, unknown>,
      transferDetails: { amount: t.amount, currency: internal.currency, sourceAccountId, destinationAccountId },
    }, idempotencyKey);
  }

  return { createQuote, getQuote, executeQuote, transfer };
}

export type AgentPayments = ReturnType<typeof createAgentPayments>;
