import type { Payment } from '../../payments/domain/payment';
import { completion, failure, type PlannedChange, type SettlementTiming } from '../../payments/domain/settlement-plan';
import type { LightningNode } from './lightning-node';
import type { UmaRecords } from './uma-records';
import type { UmaSender } from './uma-sender';

export interface UmaSettlementDeps {
  records: UmaRecords;
  lightning: LightningNode;
  sender: Pick<UmaSender, 'reportPaid'>;
  timing: SettlementTiming;
  pollMs: number;
  /** Longest fee we pay to route a payment, in msats. */
  maxFeeMsats: number;
}

const hold = (now: Date, pollMs: number): PlannedChange => ({
  change: { set: { nextActionAt: new Date(now.getTime() + pollMs).toISOString() }, events: [] },
});

/**
 * The Lightning leg of UMA payments between servers, run by the settlement worker before a
 * payment's last step (every step is the step runner's: a crash repeats the step, never the money).
 *
 * Incoming: the credit waits for the invoice to be paid, is recorded with its payment hash once it
 * is, and the payment fails, crediting nothing, if the invoice expires unpaid.
 *
 * Outgoing: the receiver's invoice is paid (once: the node pays an invoice at most once), the
 * receiver is sent the signed post-transaction callback, then the payment completes. A payment the
 * node reports failed fails, and its debit is refunded by the usual refund step. In the sandbox,
 * where the callback is the only thing that tells the receiver, an unreported payment is retried
 * until `giveUpAt`, then refunded.
 */
export function createUmaSettlement(deps: UmaSettlementDeps) {
  async function incoming(p: Payment, plan: PlannedChange, now: Date): Promise<PlannedChange> {
    const record = await deps.records.incoming(p.id);
    if (!record) return plan;
    const state = await deps.lightning.invoiceState(record.paymentHash);
    if (state === 'PAID') return completion(p, now, deps.timing, { railReference: record.paymentHash });
    if (state === 'CANCELED' || Date.parse(record.expiresAt) <= now.getTime()) {
      return {
        change: failure({
          payment: p,
          now,
          timing: deps.timing,
        }),
      };
    }
    return hold(now, deps.pollMs);
  }

  async function outgoing(p: Payment, plan: PlannedChange, now: Date): Promise<PlannedChange> {
    const record = await deps.records.outgoing(p.id);
    if (!record) return plan;
    const attempt = await deps.lightning.payInvoice({ invoice: record.invoice, maxFeeMsats: deps.maxFeeMsats });
    if (attempt.status === 'FAILED') {
      return {
        change: failure({
          payment: p,
          reason: 'QUOTE_EXECUTION_FAILED',
          now,
          timing: deps.timing,
        }),
      };
    }
    if (attempt.status === 'IN_FLIGHT') return hold(now, deps.pollMs);
    if (!record.reportedAt && record.postTransactionCallback) {
      if (await deps.sender.reportPaid(record.postTransactionCallback, attempt.paymentHash, record.amountMsats)) {
        await deps.records.markReported(p.id, now.toISOString());
      } else if (deps.lightning.acceptPaymentProof) {
        // The sandbox's payment exists only once the receiver accepts the report.
        if (Date.parse(record.giveUpAt) <= now.getTime()) {
          return {
            change: failure({
              payment: p,
              reason: 'QUOTE_EXECUTION_FAILED',
              now,
              timing: deps.timing,
            }),
          };
        }
        return hold(now, deps.pollMs);
      }
    }
    return completion(p, now, deps.timing, { railReference: attempt.paymentHash });
  }

  return async function settleUma(p: Payment, plan: PlannedChange, now: Date): Promise<PlannedChange> {
    if (p.type === 'INCOMING' && plan.movement === 'credit' && p.source.sourceType === 'UMA_ADDRESS') {
      return incoming(p, plan, now);
    }
    if (p.type === 'OUTGOING' && plan.movement === 'settle' && p.destination.destinationType === 'UMA_ADDRESS') {
      return outgoing(p, plan, now);
    }
    return plan;
  };
}
