import { createHash } from 'node:crypto';
import { AppError } from '../../../../lib/errors';
import type { NewEvent } from '../../../../lib/bus/outbox';
import { agentActionJson } from '../../../../lib/contract/agent-action-json';
import type { RateSource } from '../../rates/adapters/rate-source';
import { toAgentActionRecord } from '../domain/agent-action-records';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import { convertUp, rateFromDecimal } from '../../shared/domain/money';
import type { Payment } from '../../payments/domain/payment';
import type { CreateTransfer } from '../../payments/app/transfers';
import type { ExecuteQuote } from '../../payments/app/execute-quote';
import type { Caller } from '../../shared/app/payment-accounts';
import type { PaymentStore } from '../../payments/app/payment-store';
import type { AgentAction, AgentActionStore } from './agent-action-store';
import type { AgentUsage } from './agent-usage';
import type { TransferRequestMessage } from '../../payments/domain/transfer-request';

export interface AgentActionDeps {
  actions: AgentActionStore;
  payments: PaymentStore;
  usage: AgentUsage;
  rates: RateSource;
  executeQuote: ExecuteQuote;
  createTransfer: CreateTransfer;
  newEvent: NewEvent;
  clock: () => Date;
}

/** A uuid (version 8) from the agent and its Idempotency-Key: a repeat names the same action. */
export function actionIdFor(agentId: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(`${agentId}\n${idempotencyKey}`).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `AgentAction:${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** What agent actions share: converting amounts, performing the payment once, the action's events. */
export function createAgentActionRunner(deps: AgentActionDeps) {
  /** `amount` of `from` in minor units of `to`, rounded up (a limit never counts low). */
  async function convert(amount: number, from: string, to: string): Promise<number> {
    if (from === to) return amount;
    const [source, target] = [findCurrency(from), findCurrency(to)];
    if (!source || !target) {
      throw new AppError('INVALID_CURRENCY', `Cannot convert ${from} to ${to} for the agent's limits`);
    }
    return convertUp(amount, rateFromDecimal(await deps.rates.rate(from, to)), source.decimals, target.decimals);
  }

  /**
   * Executes the quote or makes the transfer; the action id is its idempotency key, so a repeat makes nothing twice.
   */
  function perform(caller: Caller, action: AgentAction): Promise<Payment> {
    if (action.type === 'EXECUTE_QUOTE') {
      return deps.executeQuote({ caller, quoteId: action.quoteId!, idempotencyKey: action.id });
    }
    return deps.createTransfer({
      caller,
      direction: action.type === 'TRANSFER_IN' ? 'IN' : 'OUT',
      body: (action.transferBody ?? {}) as TransferRequestMessage,
      idempotencyKey: action.id,
      agentId: action.agentId,
    });
  }

  /**
   * Pays an APPROVED action still `executing`: the payment's id is recorded by a conditional write
   * from that state. A payment that cannot be made leaves the action FAILED and gives its spend back.
   */
  async function execute(
    caller: Caller,
    approved: AgentAction,
  ): Promise<{ action: AgentAction; payment?: Payment; error?: AppError }> {
    try {
      const payment = await perform(caller, approved);
      const done = await deps.actions.transition({
        platformId: caller.platformId,
        id: approved.id,
        from: 'EXECUTING',
        set: { paymentId: payment.id, updatedAt: deps.clock().toISOString() },
        unset: ['executing'],
      });
      if (done) return { action: done, payment };
      return { action: (await deps.actions.get(caller.platformId, approved.id)) ?? approved };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const set = { status: 'FAILED' as const, failureMessage: err.message, updatedAt: deps.clock().toISOString() };
      const failed = await deps.actions.transition({
        platformId: caller.platformId,
        id: approved.id,
        from: 'EXECUTING',
        set,
        unset: ['executing', 'quoteClaim'],
      });
      if (failed) await deps.usage.release(approved.id);
      return { action: failed ?? approved, error: err };
    }
  }

  const payment = (platformId: string, id: string) => deps.payments.get(platformId, id);
  const paymentOf = async (a: AgentAction) => (a.paymentId ? payment(a.platformId, a.paymentId) : null);

  /** The action's record; `made`: its payment as the execution just left it (read afresh otherwise). */
  async function record(a: AgentAction, made?: Payment) {
    return toAgentActionRecord(a, made && made.id === a.paymentId ? made : await paymentOf(a));
  }

  async function pendingEvent(a: AgentAction) {
    return deps.newEvent({
      type: 'AGENT_ACTION.PENDING_APPROVAL',
      version: 1,
      platformId: a.platformId,
      aggregateId: a.id,
      data: agentActionJson(await record(a)),
    });
  }

  return { convert, perform, execute, record, pendingEvent, paymentOf, payment };
}

export type AgentActionRunner = ReturnType<typeof createAgentActionRunner>;
