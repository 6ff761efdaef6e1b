import { DuplicateKeyError, type Doc, type DocumentStore } from '../../../../lib/store/document-store';
import type { WalletSession } from '../../domain/wallet-auth/wallet-session';
import type { SessionStore } from '../../app/wallet-auth/wallet-auth-stores';
import { fromDocument, toDocument } from './document-mapping';

export function createSessionDocumentStore(store: DocumentStore): SessionStore & { ensureIndexes(): Promise<void> } {
  const sessions = store.collection<Doc>('wallet_sessions');
  const read = (doc: Doc | null) => fromDocument<WalletSession>(doc);
  return {
    async ensureIndexes() {
      await sessions.createIndex({ keys: { operationId: 1 }, unique: true, name: 'operation' });
      await sessions.createIndex({ keys: { signingPublicKey: 1 }, name: 'signing_key' });
      await sessions.createIndex({ keys: { accountId: 1, state: 1 }, name: 'account_state' });
      await sessions.createIndex({ keys: { credentialId: 1, state: 1 }, name: 'credential_state' });
    },
    async insertOnce(session) {
      try {
        await sessions.insertOne(toDocument(session) as Doc);
        return session;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        const existing = read(await sessions.findOne({ operationId: session.operationId }));
        if (!existing) throw err;
        return existing;
      }
    },
    async find(platformId, id) {
      return read(await sessions.findOne({ _id: id, platformId }));
    },
    async findBySigningKey(signingPublicKey) {
      return (await sessions.find({ signingPublicKey, state: 'ACTIVE' })).map((doc) => read(doc)!);
    },
    async listActive(platformId, accountId, now) {
      const docs = await sessions.find(
        { platformId, accountId, state: 'ACTIVE', expiresAt: { $gt: now.toISOString() } },
        { sort: { createdAt: 1 } },
      );
      return docs.map((doc) => read(doc)!);
    },
    async revoke(id, now) {
      const result = await sessions.updateOne({ _id: id, state: 'ACTIVE' }, {
        $set: { state: 'REVOKED', updatedAt: now.toISOString() },
      });
      return result.modifiedCount === 1;
    },
    async revokeForCredential(credentialId, now) {
      const result = await sessions.updateMany({ credentialId, state: 'ACTIVE' }, {
        $set: { state: 'REVOKED', updatedAt: now.toISOString() },
      });
      return result.modifiedCount;
    },
  };
}
