import { DuplicateKeyError, type DocumentCollection, type DocumentStore } from '../../../lib/store/document-store';
import { NO_LOCKOUT, type LoginSecurity } from '../domain/sca-lockout';
import type { ScaStore } from '../app/sca-store';

const read = <T>(doc: Record<string, unknown> | null): T | null => {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  return { id: _id, ...rest } as T;
};
const write = (record: { id: string }) => {
  const { id, ...rest } = record;
  return { _id: id, ...rest };
};
const personal = (platformId: string, customerId: string) => `${platformId}|${customerId}`;

/** SCA records in their own collections of the accounts store. */
export function createScaStore(store: DocumentStore): ScaStore & { createIndexes(): Promise<void> } {
  const factors: DocumentCollection = store.collection('sca_factors');
  const enrollments: DocumentCollection = store.collection('sca_enrollments');
  const challenges: DocumentCollection = store.collection('sca_challenges');
  const sessions: DocumentCollection = store.collection('sca_sessions');
  const security: DocumentCollection = store.collection('sca_security');
  const resets: DocumentCollection = store.collection('sca_resets');
  const trusted: DocumentCollection = store.collection('sca_trusted_beneficiaries');
  return {
    async createIndexes() {
      await factors.createIndex({ name: 'by_customer', keys: { platformId: 1, customerId: 1 } });
      await resets.createIndex({ name: 'by_customer', keys: { platformId: 1, customerId: 1, createdAt: 1 } });
    },
    factors: {
      async list(platformId, customerId) {
        return (await factors.find({ platformId, customerId }, { sort: { createdAt: 1 } })).map((d) => read(d)!);
      },
      async insert(factor) {
        await factors.insertOne(write(factor));
      },
      async remove(platformId, customerId, match) {
        const filter = {
          platformId,
          customerId,
          ...(match.credentialId ? { credentialId: match.credentialId } : { factor: match.factor }),
        };
        return (await factors.deleteMany(filter)).deletedCount > 0;
      },
      async useTotpStep(id, step) {
        const r = await factors.updateOne({
          _id: id,
          $or: [{ lastUsedStep: { $exists: false } }, { lastUsedStep: { $lt: step } }],
        }, { $set: { lastUsedStep: step } });
        return r.matchedCount === 1;
      },
      async useRecoveryCode(id, hash) {
        return (await factors.updateOne({ _id: id, recoveryCodeHashes: hash }, { $pull: { recoveryCodeHashes: hash } }))
          .matchedCount === 1;
      },
      async setCounter(id, counter) {
        await factors.updateOne({ _id: id }, { $set: { counter } });
      },
    },
    enrollments: {
      async put(enrollment) {
        await enrollments.updateOne({ _id: enrollment.id }, { $set: write(enrollment) }, { upsert: true });
      },
      async take(id) {
        return read(
          await enrollments.findOneAndUpdate({ _id: id, taken: { $exists: false } }, { $set: { taken: true } }, {
            returnDocument: 'before',
          }),
        );
      },
      async find(id) {
        return read(await enrollments.findOne({ _id: id, taken: { $exists: false } }));
      },
    },
    challenges: {
      async insert(challenge) {
        await challenges.insertOne(write(challenge));
      },
      async find(id) {
        return read(await challenges.findOne({ _id: id }));
      },
      async claimEvaluation(id, { max, proof, now, staleBefore }) {
        const r = await challenges.updateOne(
          {
            _id: id,
            attempts: { $lt: max },
            completedAt: { $exists: false },
            $or: [{ evaluatingSince: { $exists: false } }, { evaluatingSince: { $lt: staleBefore } }],
          },
          { $inc: { attempts: 1 }, $set: { evaluatingProof: proof, evaluatingSince: now } },
        );
        return r.matchedCount === 1;
      },
      async endEvaluation(id, proof, outcome, now) {
        const filter = { _id: id, evaluatingProof: proof, completedAt: { $exists: false } };
        const unset = { evaluatingProof: '', evaluatingSince: '' };
        const update = outcome === 'COMPLETED'
          ? { $set: { completedAt: now, completedProof: proof }, $unset: unset }
          : outcome === 'FAILED'
          ? { $push: { failedProofs: proof }, $unset: unset }
          : { $inc: { attempts: -1 }, $unset: unset };
        return (await challenges.updateOne(filter, update)).matchedCount === 1;
      },
      async replaceCode(id, codeHash, salt) {
        await challenges.updateOne({ _id: id }, { $set: { codeHash, salt } });
      },
      async put(challenge) {
        const { _id, ...fields } = write(challenge);
        const unset = [
          'codeHash',
          'salt',
          'sentAt',
          'challengeHex',
          'summary',
          'completedAt',
          'completedProof',
          'evaluatingProof',
          'evaluatingSince',
          'failedProofs',
        ].filter((k) => !(k in fields));
        await challenges.updateOne({ _id }, {
          $set: fields,
          ...(unset.length ? { $unset: Object.fromEntries(unset.map((k) => [k, ''])) } : {}),
        }, { upsert: true });
      },
      async markResent(id, sentAt, sentBefore) {
        return (await challenges.updateOne({ _id: id, sentAt: { $lte: sentBefore } }, { $set: { sentAt } }))
          .matchedCount === 1;
      },
    },
    sessions: {
      async put(platformId, customerId, startedAt, expiresAt) {
        await sessions.updateOne({ _id: personal(platformId, customerId) }, { $set: { startedAt, expiresAt } }, {
          upsert: true,
        });
      },
      async find(platformId, customerId) {
        const doc = await sessions.findOne({ _id: personal(platformId, customerId) });
        return doc ? { startedAt: doc.startedAt as string, expiresAt: doc.expiresAt as string } : null;
      },
    },
    security: {
      async find(platformId, customerId) {
        const doc = await security.findOne({ _id: personal(platformId, customerId) });
        if (!doc) return NO_LOCKOUT;
        const { _id, ...state } = doc;
        return state as unknown as LoginSecurity;
      },
      async replace(platformId, customerId, current, next) {
        const _id = personal(platformId, customerId);
        const version = current.version ?? 0;
        const clean = Object.fromEntries(
          Object.entries({ ...next, version: version + 1 }).filter(([, v]) => v !== undefined),
        );
        const unset = ['lockedUntil', 'sessionsRevokedAt', 'lastFailedAt', 'reservations'].filter((k) => !(k in clean));
        try {
          if (version === 0) {
            // The first write: inserted unless a concurrent first write won.
            const r = await security.updateOne({ _id, $or: [{ version: 0 }, { version: { $exists: false } }] }, {
              $set: clean,
              ...(unset.length ? { $unset: Object.fromEntries(unset.map((k) => [k, ''])) } : {}),
            }, { upsert: true });
            return r.matchedCount === 1 || r.upsertedId !== undefined;
          }
          const r = await security.updateOne({ _id, version }, {
            $set: clean,
            ...(unset.length ? { $unset: Object.fromEntries(unset.map((k) => [k, ''])) } : {}),
          });
          return r.matchedCount === 1;
        } catch (err) {
          if (err instanceof DuplicateKeyError) return false;
          throw err;
        }
      },
    },
    resets: {
      async insert(reset) {
        await resets.insertOne(write(reset));
      },
      async find(platformId, customerId, id) {
        return read(await resets.findOne({ _id: id, platformId, customerId }));
      },
      async countSince(platformId, customerId, since) {
        return resets.countDocuments({ platformId, customerId, createdAt: { $gte: since } });
      },
      async transition(id, from, to, set) {
        return (await resets.updateOne({ _id: id, status: { $in: from } }, { $set: { ...set, status: to } }))
          .matchedCount === 1;
      },
    },
    trusted: {
      async isTrusted(platformId, externalAccountId) {
        return (await trusted.findOne({ _id: externalAccountId, platformId })) !== null;
      },
      async set({ platformId, customerId, externalAccountId, trusted: trust, now }) {
        if (trust) {
          await trusted.updateOne({ _id: externalAccountId }, { $set: { platformId, customerId, trustedAt: now } }, {
            upsert: true,
          });
        } else await trusted.deleteOne({ _id: externalAccountId, platformId });
      },
    },
  };
}
