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
  /**
   * A claim for a delivery not yet stored, when a lane is idle; undefined when every lane is busy.
   * The caller stores the delivery already DELIVERING under it (its first attempt counted) and gives
   * it to the lane, which attempts it without claiming it from the store: one write fewer. Should this
   * process die before the attempt, the claim lapses and any worker takes the delivery from the store.
   */
  reserve(): HandOff | undefined;
}

export interface HandOff {
  claimId: string;
  /** Epoch ms: the `dueAt` of the stored delivery, when its claim lapses. */
  until: number;
  /** The delivery was stored under this claim: the lane attempts it now. */
  give(delivery: WebhookDelivery): void;
  /** The delivery was not stored (a redelivered event): the lane is free again. */
  release(): void;
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
  /** Deliveries stored already claimed for this process's lanes, and claims reserved but not yet given. */
  const handedOver: Array<{ delivery: WebhookDelivery; claimId: string; claimedAt: number }> = [];
  let reserved = 0;

  const deliverOne = async (): Promise<boolean> => {
    const claimId = randomUUID();
    const now = clock().getTime();
    const claimed = await deliveries.claimDue(now, { claimId, until: now + options.claimMs });
    if (!claimed) return false;
    return attempt(claimed, claimId);
  };

  /** One attempt of a delivery claimed under `claimId`; false when it was postponed instead. */
  const attempt = async (claimed: WebhookDelivery, claimId: string): Promise<boolean> => {
    const result = await options.deliver(claimed, claimed.attemptCount);
    if ('postponed' in result) {
      await deliveries.postpone(claimed.id, claimId, clock().getTime() + options.pollIntervalMs);
      return false;
    }
    const { attempt } = result;
    const next = stateAfterAttempt({
      delivery: claimed,
      outcome: attempt.outcome,
      now: clock(),
      policy: options.policy,
      random: options.random,
    });
    const kept = await deliveries.finishAttempt(claimed.id, claimId, attempt, next);
    if (kept) instruments().webhookDeliveries.add(1, { outcome: attempt.outcome, status: next.status });
    if (kept) await options.attempted?.(claimed, attempt, result.responseBody);
    const fields = {
      webhookId: claimed.id,
      type: claimed.type,
      attempt: attempt.attempt,
      outcome: attempt.outcome,
      statusCode: attempt.statusCode,
      status: next.status,
    };
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

  /**
   * The next delivery handed over whose claim still has at least half its time left (else the store gives it again once
   * it lapses).
   */
  const takeHandedOver = () => {
    for (let next = handedOver.shift(); next; next = handedOver.shift()) {
      if (clock().getTime() - next.claimedAt < options.claimMs / 2) return next;
      logger.debug('webhook delivery handed over too long ago; left for its claim to lapse', {
        webhookId: next.delivery.id,
      });
    }
    return undefined;
  };

  /**
   * A delivery handed over that no lane will attempt (the worker stopped): PENDING again, due now, its attempt not
   * counted.
   */
  const giveBack = async ({ delivery, claimId }: { delivery: WebhookDelivery; claimId: string }) => {
    try {
      await deliveries.postpone(delivery.id, claimId, clock().getTime());
    } catch (err) {
      logger.warn('webhook delivery handed over could not be given back; its claim will lapse', {
        webhookId: delivery.id,
        err,
      });
    }
  };

  const lane = async () => {
    // After a delivery handed over, the lane looks in the store only when nudged or at the next poll.
    let lookInStore = true;
    while (running) {
      const handed = takeHandedOver();
      let found = false;
      try {
        if (handed) await attempt(handed.delivery, handed.claimId);
        else if (lookInStore) found = await deliverOne();
      } catch (err) {
        logger.error('webhook delivery worker failed; will poll again', { err });
      }
      if (handed) {
        lookInStore = false;
        continue;
      }
      if (found || !running) continue;
      lookInStore = true;
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
      await Promise.all(handedOver.splice(0).map(giveBack));
    },
    nudge() {
      const [wake] = sleepers;
      if (wake) wake();
      else missedNudges = Math.min(missedNudges + 1, options.concurrency);
    },
    deliverOne,
    reserve() {
      if (!running || sleepers.size - reserved - handedOver.length <= 0) return undefined;
      reserved++;
      const claimId = randomUUID();
      const claimedAt = clock().getTime();
      let open = true;
      const close = () => {
        if (open) {
          open = false;
          reserved--;
        }
      };
      return {
        claimId,
        until: claimedAt + options.claimMs,
        give(delivery) {
          close();
          if (!running) return void giveBack({ delivery, claimId });
          handedOver.push({ delivery, claimId, claimedAt });
          const [wake] = sleepers;
          if (wake) wake();
        },
        release: close,
      };
    },
  };
}
