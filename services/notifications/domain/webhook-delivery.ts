import { nextAttemptAt, type RetryPolicy } from './retry-schedule';
import type { WebhookNotification } from './webhook-envelope';

/**
 * PENDING (due at `dueAt`) → DELIVERING (claimed by one worker until `dueAt`) → DELIVERED, back
 * to PENDING for a retry, FAILED once the attempts are spent, or SKIPPED when the platform had
 * no endpoint at the attempt (it was removed after the delivery was recorded; an event that occurs
 * while no endpoint is set is not recorded at all). A DELIVERING record whose claim expired (its
 * worker died) is due again.
 */
export type DeliveryStatus = 'PENDING' | 'DELIVERING' | 'DELIVERED' | 'FAILED' | 'SKIPPED';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['PENDING', 'DELIVERING', 'DELIVERED', 'FAILED', 'SKIPPED'];

/** How one attempt went: acknowledged (2xx, or 409 = the receiver has this id already), or why not. */
export type AttemptOutcome = 'ACKNOWLEDGED' | 'REJECTED' | 'UNREACHABLE' | 'NO_ENDPOINT';

export interface DeliveryAttempt {
  attempt: number;
  attemptedAt: string;
  url?: string;
  statusCode?: number;
  error?: string;
  durationMs: number;
  outcome: AttemptOutcome;
}

export interface WebhookDelivery extends WebhookNotification {
  status: DeliveryStatus;
  createdAt: string;
  /** Epoch ms: when a PENDING record is due, or when a DELIVERING claim expires. */
  dueAt: number;
  attemptCount: number;
  maxAttempts: number;
  attempts: DeliveryAttempt[];
  deliveredAt?: string;
}

/** Stored before any attempt, so a crash loses nothing. */
export function newDelivery(notification: WebhookNotification, now: Date, maxAttempts: number): WebhookDelivery {
  return {
    ...notification,
    status: 'PENDING',
    createdAt: now.toISOString(),
    dueAt: now.getTime(),
    attemptCount: 0,
    maxAttempts,
    attempts: [],
  };
}

/**
 * Stored already claimed by a worker of this process (until `claimUntil`), its first attempt counted: no separate
 * claim.
 */
export function claimedDelivery(
  notification: WebhookNotification,
  now: Date,
  maxAttempts: number,
  claimUntil: number,
): WebhookDelivery {
  return { ...newDelivery(notification, now, maxAttempts), status: 'DELIVERING', dueAt: claimUntil, attemptCount: 1 };
}

/** The attempt that found no endpoint to send to: the delivery is SKIPPED, not retried. */
export function noEndpointAttempt(attempt: number, now: Date): DeliveryAttempt {
  return {
    attempt,
    attemptedAt: now.toISOString(),
    error: 'WEBHOOK_ENDPOINT_NOT_SET',
    durationMs: 0,
    outcome: 'NO_ENDPOINT',
  };
}

/** A receiver answering 409 says it processed this id already (the reference's duplicate answer). */
export function isAcknowledged(statusCode: number): boolean {
  return (statusCode >= 200 && statusCode < 300) || statusCode === 409;
}

export interface NextState {
  status: Exclude<DeliveryStatus, 'DELIVERING'>;
  dueAt?: number;
  deliveredAt?: string;
}

/** Attempt number `delivery.attemptCount` ending with `outcome` at `now`, under the retry `policy`. */
export interface EndedAttempt {
  delivery: Pick<WebhookDelivery, 'attemptCount' | 'maxAttempts'> & Partial<Pick<WebhookDelivery, 'createdAt'>>;
  outcome: AttemptOutcome;
  now: Date;
  policy: RetryPolicy;
  random?: () => number;
}

/** The state after attempt number `attemptCount` ended with `outcome`. */
export function stateAfterAttempt({ delivery, outcome, now, policy, random }: EndedAttempt): NextState {
  if (outcome === 'ACKNOWLEDGED') return { status: 'DELIVERED', deliveredAt: now.toISOString() };
  if (outcome === 'NO_ENDPOINT') return { status: 'SKIPPED' };
  const firstAt = delivery.createdAt ? Date.parse(delivery.createdAt) : now.getTime();
  const due = nextAttemptAt({
    failedAttempts: delivery.attemptCount,
    now: now.getTime(),
    policy: { ...policy, maxAttempts: delivery.maxAttempts },
    random,
    firstAt,
  });
  return due === undefined ? { status: 'FAILED' } : { status: 'PENDING', dueAt: due };
}
