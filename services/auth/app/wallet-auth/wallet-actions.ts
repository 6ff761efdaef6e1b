import { AppError } from '../../../../lib/errors';
import { bodyOf, requireClientPublicKey, requireInternalAccountId } from './request-fields';
import type { Outcome, Signature, SignedFlow } from './signed-flow';
import type { WalletStore } from './wallet-auth-stores';

/** Wallet actions a session authorizes: export of the wallet credentials, and wallet privacy. */
export function createWalletActions(deps: { wallets: WalletStore; flow: SignedFlow }) {
  async function walletOf(platformId: string, accountId: string) {
    requireInternalAccountId(accountId, 'id');
    const wallet = await deps.wallets.find(platformId, accountId);
    if (!wallet) throw AppError.notFound('Internal account');
    return wallet;
  }
  const signer = (accountId: string) => ({ kind: 'session' as const, accountIds: [accountId] });

  return {
    async exportWallet(
      platformId: string,
      accountId: string,
      rawBody: unknown,
      signature: Signature | undefined,
    ): Promise<Outcome> {
      const body = bodyOf(rawBody);
      const clientPublicKey = requireClientPublicKey(body);
      await walletOf(platformId, accountId);
      return deps.flow.run({
        request: { platformId, operation: 'wallet.export', targetId: accountId, body },
        signature,
        prepare: async () => ({
          signer: signer(accountId),
          context: { accountId, clientPublicKey },
          parameters: { accountId, targetPublicKey: clientPublicKey },
        }),
      });
    },

    async updatePrivacy(
      platformId: string,
      accountId: string,
      rawBody: unknown,
      signature: Signature | undefined,
    ): Promise<Outcome> {
      const body = bodyOf(rawBody);
      if (typeof body.privateEnabled !== 'boolean') {
        throw AppError.invalidInput('privateEnabled must be a boolean', [{
          field: 'privateEnabled',
          message: 'must be a boolean',
        }]);
      }
      const privateEnabled = body.privateEnabled;
      await walletOf(platformId, accountId);
      return deps.flow.run({
        request: { platformId, operation: 'wallet.privacy', targetId: accountId, body },
        signature,
        prepare: async () => ({
          signer: signer(accountId),
          context: { accountId, privateEnabled },
          parameters: { accountId, privateEnabled },
        }),
      });
    },

    async privacyOf(platformId: string, accountId: string): Promise<boolean> {
      return (await walletOf(platformId, accountId)).privateEnabled;
    },
  };
}

export type WalletActions = ReturnType<typeof createWalletActions>;
