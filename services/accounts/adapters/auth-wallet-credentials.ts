import { AppError } from '../../../lib/errors';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import { SyncOutcomeUnknown, type WalletCredentials } from '../app/service-ports';

/** Answers of SyncEmailOtpEmail after which the auth service guarantees nothing changed. */
const DEFINITE_REFUSALS = new Set(['EMAIL_OTP_CREDENTIAL_SYNC_FAILED', 'CONFLICT', 'INVALID_INPUT']);

/** The auth service's WalletAuthService, as the accounts service uses it for customers' wallets. */
export function createAuthWalletCredentials(peers: PeerClients): WalletCredentials {
  return {
    async emailOtpAccounts(platformId, accountIds) {
      if (!accountIds.length) return [];
      return (await peers.walletAuth.listEmailOtpAccounts({ accountIds }, { platformId })).accountIds;
    },
    async syncEmail(platformId, accountIds, email) {
      try {
        await peers.walletAuth.syncEmailOtpEmail({ accountIds, newEmail: email }, { platformId });
      } catch (err) {
        if (err instanceof AppError && DEFINITE_REFUSALS.has(err.code)) throw err;
        throw new SyncOutcomeUnknown(err);
      }
    },
    async privacyOf(platformId, accountIds) {
      const answers = await Promise.all(
        accountIds.map((accountId) => peers.walletAuth.getWalletPrivacy({ accountId }, { platformId })),
      );
      return new Map(accountIds.map((id, i) => [id, answers[i].privateEnabled]));
    },
  };
}
