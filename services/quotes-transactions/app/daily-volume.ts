import { applicableLimits, dailyVolumeExceeded, volumeDay } from '../domain/limits';
import type { Caller } from './payment-accounts';
import type { PaymentSettingsSource } from './payment-settings';

/** Storage port: one counter per platform, limit (currency or corridor) and UTC day. */
export interface VolumeStore {
  /** Adds `amount` for `paymentId` if the counter stays within `limit`; idempotent per payment. */
  reserve(input: { counter: string; paymentId: string; amount: number; limit: number }): Promise<boolean>;
}

/**
 * Daily volume is counted when a payment is executed, atomically per counter, so concurrent
 * executions cannot pass a limit together. A payment counts against the corridor's limit and the
 * sending currency's; if the second refuses, the first keeps the amount (counting high, never low).
 * A payment that later fails keeps its volume.
 */
export function createDailyVolume(deps: { store: VolumeStore; settings: PaymentSettingsSource; clock: () => Date }) {
  return async function reserveDailyVolume(caller: Caller, input: { sending: string; receiving: string; paymentId: string; amount: number }): Promise<void> {
    const { limits } = await deps.settings.get(caller);
    const day = volumeDay(deps.clock());
    for (const limit of applicableLimits(limits, input.sending, input.receiving)) {
      if (limit.dailyVolume === undefined) continue;
      const counter = `${caller.platformId}/${limit.currency}/${limit.receivingCurrency ?? '*'}/${day}`;
      if (!(await deps.store.reserve({ counter, paymentId: input.paymentId, amount: input.amount, limit: limit.dailyVolume }))) throw dailyVolumeExceeded(limit);
    }
  };
}

export type ReserveDailyVolume = ReturnType<typeof createDailyVolume>;
