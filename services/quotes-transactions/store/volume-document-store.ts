import { DuplicateKeyError, type DocumentStore } from '../../../lib/store/document-store';
import type { VolumeStore } from '../app/daily-volume';

type VolumeDoc = { _id: string; used: number; payments: string[] };

export function createVolumeDocumentStore(store: DocumentStore): VolumeStore {
  const volumes = store.collection<VolumeDoc>('daily_volumes');
  return {
    async reserve({ counter, paymentId, amount, limit }) {
      try {
        await volumes.updateOne({ _id: counter }, { $setOnInsert: { used: 0, payments: [] } }, { upsert: true });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      const reserved = await volumes.findOneAndUpdate(
        { _id: counter, used: { $lte: limit - amount }, payments: { $ne: paymentId } },
        { $inc: { used: amount }, $push: { payments: paymentId } },
      );
      if (reserved) return true;
      return !!(await volumes.findOne({ _id: counter, payments: paymentId }));
    },
  };
}
