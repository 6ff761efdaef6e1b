import { DuplicateKeyError, type DocumentStore } from '../../../../lib/store/document-store';
import type { VolumeStore } from '../app/daily-volume';
import { createPendingKeys, reservationLock } from '../../shared/store/pending-keys';

/**
 * A counter holds the day's `used` amount and, only while a reservation or a release of it is in
 * flight, that reservation's key (`pending.<payment>`, pending-keys.ts / `releasing`). Each
 * payment's share is its own reservation document, so a counter stays small however many payments
 * a day has. (`counting`: an array of counted keys a stored counter may hold, honoured like `pending`.)
 */
type CounterDoc = {
  _id: string;
  used: number;
  counting: string[];
  releasing: string[];
  pending?: Record<string, number>;
};
type ReservationDoc = {
  _id: string;
  counter: string;
  paymentId: string;
  amount: number;
  state: 'COUNTED' | 'RELEASED';
};

export const VOLUMES_COLLECTION = 'daily_volumes';
export const RESERVATIONS_COLLECTION = 'daily_volume_reservations';

const reservationKey = (counter: string, paymentId: string) => `${counter}|${paymentId}`;

/** A payment's amount to add to a counter under `key`, within `limit`. */
interface CountedAmount {
  counter: string;
  key: string;
  paymentId: string;
  amount: number;
  limit: number;
}

export function createVolumeDocumentStore(store: DocumentStore) {
  const counters = store.collection<CounterDoc>(VOLUMES_COLLECTION);
  const reservations = store.collection<ReservationDoc>(RESERVATIONS_COLLECTION);
  const oneAtATime = reservationLock(store);
  const pending = createPendingKeys();

  async function ensureCounter(counter: string): Promise<void> {
    try {
      await counters.updateOne({ _id: counter }, { $setOnInsert: { used: 0, counting: [], releasing: [] } }, {
        upsert: true,
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /** Adds the amount with the key if the counter stays within the limit and the key is not already being counted. */
  async function count({ counter, key, paymentId, amount, limit }: CountedAmount): Promise<boolean> {
    const field = pending.field(paymentId);
    const add = async () => {
      const { ids, unset } = pending.removable(counter, paymentId);
      const result = await counters.updateOne(
        { _id: counter, used: { $lte: limit - amount }, counting: { $ne: key }, [field]: { $exists: false } },
        { $inc: { used: amount }, $set: { [field]: amount }, ...(unset ? { $unset: unset } : {}) },
      );
      pending.removed(counter, ids, result.matchedCount === 1);
      return result;
    };
    if ((await add()).matchedCount === 1) return true;
    // The day's counter exists after its first reservation: it is created only when an attempt finds nothing.
    if (await counters.countDocuments({ _id: counter })) return false;
    await ensureCounter(counter);
    return (await add()).matchedCount === 1;
  }

  async function record(reservation: ReservationDoc): Promise<void> {
    try {
      await reservations.insertOne(reservation);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    pending.recorded(reservation.counter, reservation.paymentId);
  }

  /**
   * COUNTED → RELEASED, taking the amount off once: the counter write carries the key until the reservation says
   * RELEASED.
   */
  async function releaseOne(reservation: ReservationDoc): Promise<void> {
    const { _id: key, counter, amount } = reservation;
    if (reservation.state === 'COUNTED') {
      await counters.updateOne({ _id: counter, releasing: { $ne: key } }, {
        $inc: { used: -amount },
        $push: { releasing: key },
      });
      await reservations.updateOne({ _id: key, state: 'COUNTED' }, { $set: { state: 'RELEASED' } });
    }
    await counters.updateOne({ _id: counter }, { $pull: { releasing: key } });
  }

  const port: VolumeStore & { ensureIndexes(): Promise<void> } = {
    async ensureIndexes() {
      await reservations.createIndex({ keys: { paymentId: 1 } });
    },
    reserve({ counter, paymentId, amount, limit }) {
      const key = reservationKey(counter, paymentId);
      return oneAtATime.run(key, async () => {
        if (await reservations.findOne({ _id: key })) return true;
        const counted = await count({ counter, key, paymentId, amount, limit })
          // Refused: unless this payment's amount is already in (an earlier attempt, cut by a crash before it recorded
          // it).
          || (await counters.countDocuments({
              _id: counter,
              $or: [{ counting: key }, { [pending.field(paymentId)]: { $exists: true } }],
            })) > 0;
        if (!counted) return (await reservations.countDocuments({ _id: key })) > 0;
        await record({ _id: key, counter, paymentId, amount, state: 'COUNTED' });
        return true;
      });
    },
    async release({ paymentId }) {
      for (const { _id: key } of await reservations.find({ paymentId }, { projection: { _id: 1 } })) {
        await oneAtATime.run(key, async () => {
          const reservation = await reservations.findOne({ _id: key });
          if (reservation) await releaseOne(reservation);
        });
      }
    },
  };
  return port;
}
