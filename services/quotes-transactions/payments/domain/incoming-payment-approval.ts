import type { Payment, PaymentChange } from './payment';
import { failure, type SettlementTiming } from './settlement-plan';

/**
 * The reference's approval mechanism for an incoming payment on an approval rail (UMA): the
 * INCOMING_PAYMENT.PENDING webhook asks the receiving platform, and its answer decides.
 * WEBHOOK: the webhook is out, its answer awaited; DEFERRED: the platform answered 202 and must
 * call POST /transactions/{id}/approve or /reject within the window.
 */
export interface ApprovalState {
  phase: 'WEBHOOK' | 'DEFERRED';
  /** Counterparty fields the platform asked for with a 422, already supplied by the sender. */
  suppliedFields?: string[];
}

/** Asks the platform (notifications delivers it as the reference's INCOMING_PAYMENT.PENDING webhook, once). */
export const APPROVAL_REQUESTED_EVENT = 'INCOMING_PAYMENT.APPROVAL_REQUESTED';
/** The platform's answer, reported by notifications. */
export const APPROVAL_ANSWERED_EVENT = 'INCOMING_PAYMENT.APPROVAL_ANSWERED';
export const APPROVAL_ANSWERS_TOPIC = 'notifications.events.v1';

export interface ApprovalWindows {
  /** How long the webhook's answer is awaited before the payment fails with PAYMENT_APPROVAL_WEBHOOK_ERROR. */
  webhookAnswerMs: number;
  /** After a 202: the reference's 5 seconds to call approve or reject, then PAYMENT_APPROVAL_TIMED_OUT. */
  deferredMs: number;
}

/** What the receiver's endpoint answered to the approval webhook. */
export interface ApprovalAnswer {
  statusCode?: number;
  /** Unreachable, timed out, refused. */
  error?: string;
  /** The answer's body (JSON per the reference), at most a few KB. */
  body?: string;
  /** The platform has no webhook endpoint: there is no one to ask. */
  noEndpoint?: boolean;
}

/** A field the sender's VASP asks about the recipient (the reference's CounterpartyFieldDefinition). */
export interface ReceiverFieldRequest {
  name: string;
  mandatory: boolean;
}

export type ApprovalDecision =
  | { kind: 'APPROVE'; receiverCustomerInfo?: Record<string, unknown> }
  | { kind: 'REJECT' }
  | { kind: 'DEFER' }
  | { kind: 'REQUEST_FIELDS'; fields: string[] }
  | { kind: 'WEBHOOK_ERROR' };

function requiredFieldsOf(body: string | undefined): string[] {
  try {
    const parsed = JSON.parse(body ?? '') as { requiredFields?: unknown };
    return Array.isArray(parsed.requiredFields)
      ? parsed.requiredFields.filter((f): f is string => typeof f === 'string' && f.length > 0 && f.length <= 64)
      : [];
  } catch {
    return [];
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A 200's `receiverCustomerInfo` (the reference's IncomingPaymentWebhookResponse); anything else is none. */
function receiverInfoOf(body: string | undefined): Record<string, unknown> | undefined {
  try {
    const info = (JSON.parse(body ?? '') as { receiverCustomerInfo?: unknown }).receiverCustomerInfo;
    return isPlainObject(info) && Object.keys(info).length ? info : undefined;
  } catch {
    return undefined;
  }
}

/** 200 approves, 403 rejects, 422 asks for counterparty fields, 202 defers; anything else is the webhook failing. */
export function decideOnAnswer(answer: ApprovalAnswer): ApprovalDecision {
  if (answer.noEndpoint) return { kind: 'APPROVE' };
  switch (answer.statusCode) {
    case 200: {
      const info = receiverInfoOf(answer.body);
      return info ? { kind: 'APPROVE', receiverCustomerInfo: info } : { kind: 'APPROVE' };
    }
    case 202:
      return { kind: 'DEFER' };
    case 403:
      return { kind: 'REJECT' };
    case 422: {
      const fields = requiredFieldsOf(answer.body);
      return fields.length ? { kind: 'REQUEST_FIELDS', fields } : { kind: 'WEBHOOK_ERROR' };
    }
    default:
      return { kind: 'WEBHOOK_ERROR' };
  }
}

/** The payment waits for the answer to its webhook (not yet answered, not deferred). */
export function awaitsWebhookAnswer(p: Payment): boolean {
  return p.type === 'INCOMING' && p.status === 'PENDING' && p.stage === 'AWAITING_APPROVAL'
    && p.approval?.phase === 'WEBHOOK' && !p.pendingStep;
}

const at = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/** The sandbox sender supplies what it is asked for (a real UMA sender would send its payer data). */
function sandboxCounterpartyValue(field: string): string {
  const known: Record<string, string> = {
    FULL_NAME: 'Sandbox Sender',
    BIRTH_DATE: '1985-06-15',
    NATIONALITY: 'US',
    COUNTRY_OF_RESIDENCE: 'US',
    EMAIL: 'sender@sandbox.example.com',
  };
  return known[field] ?? `SANDBOX_${field}`;
}

/** Sent on the rail: what an approval (by answer or by the API) changes. */
export function approvedChange(now: Date, timing: SettlementTiming): PaymentChange {
  return { set: { stage: 'SUBMITTED', nextActionAt: at(now, timing.stepMs) }, unset: ['approval'], events: [] };
}

/** Rejected by the platform: the payment fails and its funds go back to the sender (refund), who is told so. */
export function rejectedChange(p: Payment, now: Date, timing: SettlementTiming): PaymentChange {
  const change = failure({ payment: p, now, timing, rejectedByPlatform: true });
  return { ...change, unset: [...(change.unset ?? []), 'approval'] };
}

function failedChange(
  p: Payment,
  reason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' | 'PAYMENT_APPROVAL_TIMED_OUT',
  now: Date,
  timing: SettlementTiming,
): PaymentChange {
  const change = failure({ payment: p, reason, now, timing });
  return { ...change, unset: [...(change.unset ?? []), 'approval'] };
}

const provided = (info: Record<string, unknown> | undefined, field: string) => {
  const v = info?.[field];
  return v !== undefined && v !== null && v !== '';
};

/** The mandatory requested receiver fields an approval left out. */
export function missingReceiverFields(p: Payment, info: Record<string, unknown> | undefined): string[] {
  return (p.requestedReceiverFields ?? []).filter((f) => f.mandatory && !provided(info, f.name)).map((f) => f.name);
}

/**
 * A 200 approves only with every mandatory requested receiver field: without one the sender's VASP
 * cannot complete the payment, so it fails (PAYMENT_APPROVAL_WEBHOOK_ERROR: the answer is unusable) and is refunded.
 */
function approvedByAnswer(
  p: Payment,
  info: Record<string, unknown> | undefined,
  now: Date,
  timing: SettlementTiming,
): PaymentChange {
  if (missingReceiverFields(p, info).length) return failedChange(p, 'PAYMENT_APPROVAL_WEBHOOK_ERROR', now, timing);
  const change = approvedChange(now, timing);
  return info ? { ...change, set: { ...change.set, receiverCustomerInfo: info } } : change;
}

/** The decision taken at `now` on a payment awaiting the platform's answer, and the timing and windows it follows. */
export interface AnsweredPayment {
  payment: Payment;
  decision: ApprovalDecision;
  now: Date;
  timing: SettlementTiming;
  windows: ApprovalWindows;
}

/** The change the answer makes to a payment that awaits it. */
export function answeredChange({ payment: p, decision, now, timing, windows }: AnsweredPayment): PaymentChange {
  switch (decision.kind) {
    case 'APPROVE':
      return approvedByAnswer(p, decision.receiverCustomerInfo, now, timing);
    case 'REJECT':
      return rejectedChange(p, now, timing);
    case 'DEFER':
      return {
        set: { approval: { ...p.approval!, phase: 'DEFERRED' }, nextActionAt: at(now, windows.deferredMs) },
        events: [],
      };
    case 'REQUEST_FIELDS': {
      const supplied = p.approval?.suppliedFields ?? [];
      // Asked again for what was supplied already: the answer cannot be met.
      if (decision.fields.every((f) => supplied.includes(f))) {
        return failedChange(p, 'PAYMENT_APPROVAL_WEBHOOK_ERROR', now, timing);
      }
      const info = { ...(p.counterpartyInformation ?? {}) };
      for (const field of decision.fields) info[field] ??= sandboxCounterpartyValue(field);
      return {
        set: {
          counterpartyInformation: info,
          approval: { phase: 'WEBHOOK', suppliedFields: [...new Set([...supplied, ...decision.fields])] },
          nextActionAt: at(now, windows.webhookAnswerMs),
        },
        events: [APPROVAL_REQUESTED_EVENT],
      };
    }
    case 'WEBHOOK_ERROR':
      return failedChange(p, 'PAYMENT_APPROVAL_WEBHOOK_ERROR', now, timing);
  }
}

/**
 * Due and still unanswered: no answer came (webhook error), or no approve/reject call within the window after a 202.
 */
export function approvalTimeout(p: Payment, now: Date, timing: SettlementTiming): PaymentChange | undefined {
  if (
    p.type !== 'INCOMING' || p.status !== 'PENDING' || p.stage !== 'AWAITING_APPROVAL' || !p.approval || p.pendingStep
  ) return undefined;
  if (!p.nextActionAt || Date.parse(p.nextActionAt) > now.getTime()) return undefined;
  return failedChange(
    p,
    p.approval.phase === 'DEFERRED' ? 'PAYMENT_APPROVAL_TIMED_OUT' : 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
    now,
    timing,
  );
}
