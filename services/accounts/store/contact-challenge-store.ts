import { DuplicateKeyError, type DocumentCollection } from '../../../lib/store/document-store';
import type { ContactChallenge, ContactChallengeStore } from '../app/contact-verification';

export function createContactChallengeStore(challenges: DocumentCollection): ContactChallengeStore {
  const read = (doc: Record<string, unknown>) => {
    const { _id, ...rest } = doc;
    return { id: _id as string, ...(rest as Omit<ContactChallenge, 'id'>) };
  };
  return {
    async issue(challenge, sentBefore) {
      const { id, ...fields } = challenge;
      try {
        // Replaces a challenge sent before `sentBefore`; with a newer one the filter misses and the insert collides.
        await challenges.updateOne({ _id: id, sentAt: { $lte: sentBefore } }, { $set: fields }, { upsert: true });
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    },
    async find(id) {
      const doc = await challenges.findOne({ _id: id });
      return doc ? read(doc) : null;
    },
    async countFailure(id, codeHash, max) {
      const result = await challenges.updateOne({ _id: id, codeHash, failedAttempts: { $lt: max } }, {
        $inc: { failedAttempts: 1 },
      });
      return result.matchedCount === 1;
    },
    async consume(id, codeHash) {
      return (await challenges.deleteOne({ _id: id, codeHash })).deletedCount === 1;
    },
  };
}
