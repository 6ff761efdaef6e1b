import { DuplicateKeyError, type DocumentStore } from '../../../lib/store/document-store';
import type { VolumeStore } from '../app/daily-volume';

/** `payments` hold their amount in `used`; `released` ones gave it back and are never counted again. */
type VolumeDoc = { _id: string; used: number; payments: string[]; released?: string[] };

export const VOLUMES_COLLECTION = 'daily_volumes';

export function createVolumeDocumentStore(store: DocumentStore) {
  const volumes = store.collection<VolumeDoc>(VOLUMES_COLLECTION);
  const port: VolumeStore & { ensureIndexes(): Promise<void> } = {
    async ensureIndexes() {
      await volumes.createIndex({ keys: { payments: 1 } });
    },
    async reserve({ counter, paymentId, amount, limit }) {
      const add = () => volumes.updateOne(
        { _id: counter, used: { $lte: limit - amount }, payments: { $ne: paymentId }, released: { $ne: paymentId } },
        { $inc: { used: amount }, $push: { payments: paymentId } },
      );
      // The day's counter exists after its first reservation: it is created only when an attempt finds nothing.
      if ((await add()).matchedCount === 1) return true;
      try {
        await volumes.updateOne({ _id: counter }, { $setOnInsert: { used: 0, payments: [], released: [] } }, { upsert: true });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      if ((await add()).matchedCount === 1) return true;
      return (await volumes.countDocuments({ _id: counter, $or: [{ payments: paymentId }, { released: paymentId }] })) > 0;
    },
    async release({ paymentId, amount }) {
      await volumes.updateMany(
        { payments: paymentId },
        { $inc: { used: -amount }, $pull: { payments: paymentId }, $push: { released: paymentId } },
      );
    },
  };
  return port;
}
