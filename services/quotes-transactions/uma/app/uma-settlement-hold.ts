import type { Payment } from '../../domain/payment';
import { completion, failure, type PlannedChange, type SettlementTiming } from '../../domain/settlement-plan';
import type { LightningNode } from './lightning-node';
import type { UmaRecords } from './uma-records';

/**
 * Before the settlement worker credits an incoming UMA payment from another VASP: the credit waits
 * for the invoice to be paid (looked at again every `pollMs`), is recorded with the invoice's
 * payment hash once it is, and the payment fails, crediting nothing, if the invoice expires unpaid.
 */
export function createUmaSettlementHold(deps: { records: UmaRecords; lightning: LightningNode; timing: SettlementTiming; pollMs: number }) {
  return async function holdUntilPaid(p: Payment, plan: PlannedChange, now: Date): Promise<PlannedChange> {
    if (p.type !== 'INCOMING' || plan.movement !== 'credit' || p.source.sourceType !== 'UMA_ADDRESS') return plan;
    const record = await deps.records.incoming(p.id);
    if (!record) return plan;
    const state = await deps.lightning.invoiceState(record.paymentHash);
    if (state === 'PAID') return completion(p, now, deps.timing, { railReference: record.paymentHash });
    if (state === 'CANCELED' || Date.parse(record.expiresAt) <= now.getTime()) return { change: failure(p, undefined, now, deps.timing) };
    return { change: { set: { nextActionAt: new Date(now.getTime() + deps.pollMs).toISOString() }, events: [] } };
  };
}
