import { applicableLimits, dailyVolumeExceeded, volumeDay } from '../domain/limits';
import type { Payment } from '../domain/payment';
import type { Caller } from '../../shared/app/payment-accounts';
import type { PaymentSettingsSource } from '../../shared/app/payment-settings';

/** Storage port: one counter per platform, limit (currency or corridor) and UTC day. */
export interface VolumeStore {
  /**
   * Adds `amount` for `paymentId` if the counter stays within `limit`; idempotent per payment. A
   * payment whose volume was released is answered true without counting it again.
   */
  reserve(input: { counter: string; paymentId: string; amount: number; limit: number }): Promise<boolean>;
  /** Takes the payment's reserved amount off every counter it was reserved on; idempotent per counter. */
  release(input: { paymentId: string }): Promise<void>;
}

/**
 * Daily volume is counted when a payment is executed, atomically per counter, so concurrent
 * executions cannot pass a limit together. A payment counts against the corridor's limit and the
 * sending currency's; if the second refuses, the first keeps the amount (counting high, never low).
 * A payment that later fails gives its volume back (`createDailyVolumeRelease`).
 */
export function createDailyVolume(deps: { store: VolumeStore; settings: PaymentSettingsSource; clock: () => Date }) {
  return async function reserveDailyVolume(
    caller: Caller,
    input: { sending: string; receiving: string; paymentId: string; amount: number },
  ): Promise<void> {
    const { limits } = await deps.settings.get(caller);
    const day = volumeDay(deps.clock());
    for (const limit of applicableLimits(limits, input.sending, input.receiving)) {
      if (limit.dailyVolume === undefined) continue;
      const counter = `${caller.platformId}/${limit.currency}/${limit.receivingCurrency ?? '*'}/${day}`;
      if (
        !(await deps.store.reserve({
          counter,
          paymentId: input.paymentId,
          amount: input.amount,
          limit: limit.dailyVolume,
        }))
      ) throw dailyVolumeExceeded(limit);
    }
  };
}

export type ReserveDailyVolume = ReturnType<typeof createDailyVolume>;

/**
 * Gives back the volume a failed payment reserved, on the day it was reserved. The step runner
 * calls it inside the step that records the failure, so it may run more than once.
 */
export function createDailyVolumeRelease(deps: { store: VolumeStore }) {
  return async function releaseDailyVolume(p: Pick<Payment, 'id'>): Promise<void> {
    await deps.store.release({ paymentId: p.id });
  };
}

export type ReleaseDailyVolume = ReturnType<typeof createDailyVolumeRelease>;
