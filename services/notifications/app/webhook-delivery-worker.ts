import { randomUUID } from 'node:crypto';
import type { Logger } from '../../../lib/log';
import { instruments } from '../../../lib/metrics';
import type { RetryPolicy } from '../domain/retry-schedule';
import { stateAfterAttempt, type DeliveryAttempt, type WebhookDelivery } from '../domain/webhook-delivery';
import type { DeliverWebhook } from './deliver-webhook';
import type { WebhookDeliveryStore } from './webhook-delivery-store';

export interface WebhookDeliveryWorkerOptions {
  deliveries: WebhookDeliveryStore;
  deliver: DeliverWebhook['deliver'];
  policy: RetryPolicy;
  /** How long a claim holds; must outlast the slowest attempt (endpoint lookup plus timeout). */
  claimMs: number;
  pollIntervalMs: number;
  /** Attempts in flight at once in this process. */
  concurrency: number;
  logger: Logger;
  clock?: () => Date;
  random?: () => number;
  /** Called once an attempt is recorded (the approval answer of an incoming payment goes back to payments). */
  attempted?: (delivery: WebhookDelivery, attempt: DeliveryAttempt, responseBody?: string) => Promise<void>;
}

export interface WebhookDeliveryWorker {
  start(): void;
  /** Lets in-flight attempts finish. */
  stop(): Promise<void>;
  /**
   * One delivery was just recorded: wakes one idle lane to look for it now instead of at the next
   * poll. A lane that finds work keeps claiming until none is due, so a burst wakes no more lanes
   * than it has deliveries, and no lane polls for a delivery another lane already took.
   */
  nudge(): void;
  /** Claims and attempts one due delivery; false when none is due. */
  deliverOne(): Promise<boolean>;
}

/**
 * Lanes that each claim one due delivery at a time. The claim is the store's conditional write,
 * so workers in any number of processes never send the same attempt.
 */
export function createWebhookDeliveryWorker(options: WebhookDeliveryWorkerOptions): WebhookDeliveryWorker {
  const { deliveries, logger } = options;
  const clock = options.clock ?? (() => new Date());
  let running = false;
  let lanes: Promise<void>[] = [];
  const sleepers = new Set<() => void>();
  /** Nudges that found every lane busy: a lane about to sleep takes one instead and looks again. */
  let missedNudges = 0;

  const deliverOne = async (): Promise<boolean> => {
    const claimId = randomUUID();
    const now = clock().getTime();
    const claimed = await deliveries.claimDue(now, { claimId, until: now + options.claimMs });
    if (!claimed) return false;
    const result = await options.deliver(claimed, claimed.attemptCount);
    if ('postponed' in result) {
      await deliveries.postpone(claimed.id, claimId, clock().getTime() + options.pollIntervalMs);
      return false;
    }
    const { attempt } = result;
    const next = stateAfterAttempt(claimed, attempt.outcome, clock(), options.policy, options.random);
    const kept = await deliveries.finishAttempt(claimed.id, claimId, attempt, next);
    if (kept) instruments().webhookDeliveries.add(1, { outcome: attempt.outcome, status: next.status });
    if (kept) await options.attempted?.(claimed, attempt, result.responseBody);
    const fields = { webhookId: claimed.id, type: claimed.type, attempt: attempt.attempt, outcome: attempt.outcome, statusCode: attempt.statusCode, status: next.status };
    if (!kept) logger.warn('webhook delivery claim lapsed before the attempt was recorded', fields);
    else if (next.status === 'FAILED') logger.warn('webhook delivery gave up', fields);
    else logger.debug('webhook delivery attempted', fields);
    return true;
  };

  const pause = () =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, options.pollIntervalMs);
      timer.unref();
      sleepers.add(wake);
    });

  const lane = async () => {
    while (running) {
      let found = false;
      try {
        found = await deliverOne();
      } catch (err) {
        logger.error('webhook delivery worker failed; will poll again', { err });
      }
      if (found || !running) continue;
      if (missedNudges > 0) missedNudges--;
      else await pause();
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      lanes = Array.from({ length: options.concurrency }, lane);
    },
    async stop() {
      running = false;
      for (const wake of [...sleepers]) wake();
      await Promise.all(lanes);
      lanes = [];
    },
    nudge() {
      const [wake] = sleepers;
      if (wake) wake();
      else missedNudges = Math.min(missedNudges + 1, options.concurrency);
    },
    deliverOne,
  };
}
