import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { authMethodView, type AuthMethodView, type Credential } from '../../domain/wallet-auth/auth-method';
import { requireInternalAccountId } from './request-fields';
import { CredentialExistsError, type CredentialStore, type WalletStore } from './wallet-auth-stores';
import type { WalletProvider } from './wallet-provider';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ProvisionCommand {
  accountId: string;
  platformId: string;
  customerEmail?: string;
  customerPhone?: string;
}

/** What the accounts service calls: wallet set-up at account creation, and email changes of the customer. */
export function createWalletProvisioning(deps: {
  credentials: CredentialStore;
  wallets: WalletStore;
  provider: WalletProvider;
  now: () => Date;
  /** How long an email change may wait for the wallet provider to settle. */
  syncTimeoutMs?: number;
}) {
  const syncTimeoutMs = deps.syncTimeoutMs ?? 10_000;

  async function ensureEmailOtp(platformId: string, accountId: string, email: string): Promise<Credential> {
    const now = deps.now().toISOString();
    const credential: Credential = {
      id: newId('AuthMethod'),
      platformId,
      accountId,
      type: 'EMAIL_OTP',
      nickname: email,
      state: 'ACTIVE',
      createdAt: now,
      updatedAt: now,
    };
    try {
      if (await deps.credentials.insert(credential)) await deps.wallets.addCredentials(accountId, 1);
      return credential;
    } catch (err) {
      if (!(err instanceof CredentialExistsError)) throw err;
      return (await deps.credentials.findActiveByType(platformId, accountId, 'EMAIL_OTP'))!;
    }
  }

  async function settled(operation: Parameters<WalletProvider['submit']>[0]): Promise<boolean> {
    const deadline = Date.now() + syncTimeoutMs;
    for (;;) {
      const answer = await deps.provider.submit(operation).catch(() => ({
        status: 'FAILED' as const,
        reason: 'unreachable',
      }));
      if (answer.status !== 'PENDING') return answer.status === 'SETTLED';
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return {
    /** Idempotent: a second call answers the existing wallet and its EMAIL_OTP credential. */
    async provision(command: ProvisionCommand): Promise<{ emailOtpCredential?: AuthMethodView; created: boolean }> {
      const accountId = requireInternalAccountId(command.accountId);
      if (!command.platformId) throw AppError.invalidInput('platformId is required');
      const email = command.customerEmail?.trim() || undefined;
      if (email && !EMAIL.test(email)) throw AppError.invalidInput('customerEmail must be an email address');
      const now = deps.now().toISOString();
      const created = await deps.wallets.create({
        accountId,
        platformId: command.platformId,
        ...(email ? { customerEmail: email } : {}),
        ...(command.customerPhone ? { customerPhone: command.customerPhone } : {}),
        privateEnabled: false,
        activeCredentials: 0,
        createdAt: now,
        updatedAt: now,
      });
      const wallet = await deps.wallets.find(command.platformId, accountId);
      if (!wallet) throw AppError.invalidInput('The account belongs to another platform');
      await deps.provider.submit({ id: `wallet:${accountId}`, kind: 'CREATE_WALLET', accountId, params: {} });
      let credential = await deps.credentials.findActiveByType(command.platformId, accountId, 'EMAIL_OTP');
      // Only a wallet that never got its default credential gets one (a revoked one stays revoked).
      if (!credential && email && (created || wallet.activeCredentials === 0)) {
        credential = await ensureEmailOtp(command.platformId, accountId, email);
      }
      return { ...(credential ? { emailOtpCredential: authMethodView(credential) } : {}), created };
    },

    async listEmailOtpAccounts(platformId: string, accountIds: string[]): Promise<string[]> {
      const found = await Promise.all(
        accountIds.map((id) => deps.credentials.findActiveByType(platformId, id, 'EMAIL_OTP')),
      );
      return found.filter((c): c is Credential => c !== null).map((c) => c.accountId);
    },

    /** All tied EMAIL_OTP credentials take the new email, or none does. */
    async syncEmailOtpEmail(platformId: string, accountIds: string[], newEmail: string): Promise<string[]> {
      if (!EMAIL.test(newEmail)) throw AppError.invalidInput('newEmail must be an email address');
      accountIds.forEach((id) => requireInternalAccountId(id, 'accountIds'));
      const tied =
        (await Promise.all(accountIds.map((id) => deps.credentials.findActiveByType(platformId, id, 'EMAIL_OTP'))))
          .filter(
            (c): c is Credential => c !== null,
          );
      const elsewhere = (await deps.credentials.findActiveEmailOtpByEmail(platformId, newEmail)).filter((c) =>
        !accountIds.includes(c.accountId)
      );
      if (elsewhere.length) {
        throw new AppError('CONFLICT', 'The email is already tied to an EMAIL_OTP credential of another account');
      }
      const updates = tied.map((c) => ({
        credential: c,
        operation: {
          id: newId('Operation'),
          kind: 'UPDATE_USER_EMAIL' as const,
          accountId: c.accountId,
          params: { credentialId: c.id, email: newEmail },
        },
      }));
      const results = await Promise.all(updates.map((u) => settled(u.operation)));
      if (results.some((ok) => !ok)) {
        // Put back the ones the provider took, so both sides stay on the old email.
        await Promise.all(
          updates.filter((_, i) => results[i]).map((u) =>
            deps.provider.submit({
              ...u.operation,
              id: newId('Operation'),
              params: { credentialId: u.credential.id, email: u.credential.nickname },
            }).catch(() => undefined)
          ),
        );
        throw new AppError(
          'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
          'The EMAIL_OTP credentials could not be updated; nothing was changed',
        );
      }
      const now = deps.now();
      for (const { credential } of updates) {
        await deps.credentials.setNickname(credential.id, newEmail, now);
        await deps.wallets.setCustomerEmail(credential.accountId, newEmail, now);
      }
      return tied.map((c) => c.id);
    },
  };
}

export type WalletProvisioning = ReturnType<typeof createWalletProvisioning>;
