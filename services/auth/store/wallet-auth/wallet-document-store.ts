import type { Doc, DocumentStore } from '../../../../lib/store/document-store';
import type { Wallet, WalletStore } from '../../app/wallet-auth/wallet-auth-stores';

type WalletDoc = Doc & Omit<Wallet, 'accountId'>;

export function createWalletDocumentStore(store: DocumentStore): WalletStore {
  const wallets = store.collection<WalletDoc>('wallets');
  return {
    async create(wallet) {
      const { accountId, ...rest } = wallet;
      const result = await wallets.updateOne({ _id: accountId }, { $setOnInsert: rest }, { upsert: true });
      return result.upsertedId !== undefined;
    },
    async find(platformId, accountId) {
      const doc = await wallets.findOne({ _id: accountId, platformId });
      if (!doc) return null;
      const { _id, ...rest } = doc;
      return { accountId: _id, ...rest } as Wallet;
    },
    async setPrivacy(accountId, privateEnabled, now) {
      await wallets.updateOne({ _id: accountId }, { $set: { privateEnabled, updatedAt: now.toISOString() } });
    },
    async setCustomerEmail(accountId, customerEmail, now) {
      await wallets.updateOne({ _id: accountId }, { $set: { customerEmail, updatedAt: now.toISOString() } });
    },
    async addCredentials(accountId, delta) {
      await wallets.updateOne({ _id: accountId }, { $inc: { activeCredentials: delta } });
    },
    async removeCredentialUnlessLast(accountId) {
      const result = await wallets.updateOne({ _id: accountId, activeCredentials: { $gt: 1 } }, {
        $inc: { activeCredentials: -1 },
      });
      return result.modifiedCount === 1;
    },
  };
}
