import type { NonceValidator } from '@uma-sdk/core';
import { DuplicateKeyError, type DocumentStore } from '../../../../lib/store/document-store';
import { acceptsTimestamp, type ReplayWindow } from '../domain/replay-window';

type NonceDoc = { _id: string; seenAt: string; expiresAt: string };

export const UMA_NONCES_COLLECTION = 'uma_nonces';

/**
 * The UMA SDK's nonce check, kept in the service's store so that a nonce seen before a restart (or
 * by another replica) is still refused: a message older than the window, or from too far ahead, is
 * refused outright; a nonce inside it is recorded once (a unique key), and seen again it is refused.
 */
export function createDocumentNonceValidator(
  store: DocumentStore,
  options: { window: ReplayWindow; clock: () => Date },
) {
  const nonces = store.collection<NonceDoc>(UMA_NONCES_COLLECTION);
  const validator: NonceValidator = {
    async checkAndSaveNonce(nonce: string, timestampSeconds: number): Promise<boolean> {
      const now = options.clock();
      if (!acceptsTimestamp(options.window, timestampSeconds, now)) return false;
      try {
        const expiresAt = new Date(now.getTime() + options.window.maxAgeMs * 2).toISOString();
        await nonces.insertOne({ _id: nonce, seenAt: now.toISOString(), expiresAt });
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    },
  };
  return {
    validator,
    async ensureIndexes() {
      await nonces.createIndex({ keys: { expiresAt: 1 }, name: 'expiry' });
    },
    /** Nonces past twice the window can never be accepted again anyway: their timestamp is refused. */
    async forgetExpired(): Promise<number> {
      return (await nonces.deleteMany({ expiresAt: { $lt: options.clock().toISOString() } })).deletedCount;
    },
  };
}
