import type { Payment, PaymentChange } from './payment';
import { assertRefundTransition, assertTransition } from './transaction-states';

/**
 * The payment after a change: members set and unset, version and `updatedAt` advanced. Status
 * and refund status may only move along the state machine.
 */
export function applyChange(p: Payment, change: Pick<PaymentChange, 'set' | 'unset'>, now: Date): Payment {
  if (change.set.status) assertTransition(p.type, p.status, change.set.status);
  if (p.refund && change.set.refund && p.refund.status !== change.set.refund.status) {
    assertRefundTransition(p.refund.status, change.set.refund.status);
  }
  const next = { ...p, ...change.set, version: p.version + 1, updatedAt: now.toISOString() } as Payment;
  for (const key of change.unset ?? []) delete next[key];
  return next;
}

/** The webhook object of a payment's kinds: OUTGOING_PAYMENT or INCOMING_PAYMENT. */
export function paymentKind(p: Pick<Payment, 'type'>): string {
  return p.type === 'OUTGOING' ? 'OUTGOING_PAYMENT' : 'INCOMING_PAYMENT';
}

/** Webhook kind of a payment's status, e.g. OUTGOING_PAYMENT.PROCESSING. */
export function statusKind(p: Pick<Payment, 'type' | 'status'>): string {
  return `${paymentKind(p)}.${p.status}`;
}
