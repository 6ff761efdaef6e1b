import { AppError } from '../../../../lib/errors';
import {
  ALREADY_EXISTS_CODE,
  authMethodView,
  otpChannelOf,
  type Credential,
} from '../../domain/wallet-auth/auth-method';
import type { SignedRetryRecord } from '../../domain/wallet-auth/signed-retry-record';
import { authSessionView } from '../../domain/wallet-auth/wallet-session';
import type { OperationExecutor } from './operation-runner';
import type { OtpIssuer } from './otp-issuer';
import { CredentialExistsError, type CredentialStore, type SessionStore, type WalletStore } from './wallet-auth-stores';
import type { WalletOperation, WalletOperationKind, WalletProvider } from './wallet-provider';

export interface ExecutorDeps {
  credentials: CredentialStore;
  sessions: SessionStore;
  wallets: WalletStore;
  otp: OtpIssuer;
  provider: WalletProvider;
  sessionTtlMs: number;
  now: () => Date;
}

const str = (record: SignedRetryRecord, key: string) => String(record.context[key] ?? '');

function operation(
  record: SignedRetryRecord,
  kind: WalletOperationKind,
  params: WalletOperation['params'],
): WalletOperation {
  return { id: record.run!.id, kind, accountId: str(record, 'accountId'), params };
}

/** What each signed-retry operation of this service does once claimed. */
export function createWalletExecutors(deps: ExecutorDeps): Record<string, OperationExecutor> {
  const createCredential: OperationExecutor = {
    providerOperation: (record) => {
      const credential = record.context.credential as Credential;
      return operation(record, 'CREATE_CREDENTIAL', { credentialId: credential.id, type: credential.type });
    },
    async apply(record) {
      const now = deps.now().toISOString();
      const credential: Credential = { ...(record.context.credential as Credential), createdAt: now, updatedAt: now };
      let inserted: boolean;
      try {
        inserted = await deps.credentials.insert(credential);
      } catch (err) {
        if (!(err instanceof CredentialExistsError)) throw err;
        throw new AppError(ALREADY_EXISTS_CODE[err.type], `The account already has this ${err.type} credential`);
      }
      if (inserted) await deps.wallets.addCredentials(credential.accountId, 1);
      const stored = (await deps.credentials.find(credential.platformId, credential.id))!;
      // An OTP credential's first code goes out with its creation; without one the client asks via challenge.
      const bundle = inserted && otpChannelOf(stored.type)
        ? await deps.otp.issue(stored).then((o) => o.bundle, () => undefined)
        : undefined;
      return { authMethod: authMethodView(stored, bundle) };
    },
  };

  const createSession: OperationExecutor = {
    providerOperation: (record) =>
      operation(record, 'CREATE_SESSION', {
        credentialId: str(record, 'credentialId'),
        ...(record.context.sessionPublicKey
          ? { sessionPublicKey: str(record, 'sessionPublicKey') }
          : { clientPublicKey: str(record, 'clientPublicKey') }),
      }),
    async apply(record, result) {
      const credential = await deps.credentials.find(record.platformId, str(record, 'credentialId'));
      if (!credential || credential.state !== 'ACTIVE') throw AppError.notFound('Authentication credential');
      const now = deps.now();
      const session = await deps.sessions.insertOnce({
        id: str(record, 'sessionId'),
        platformId: record.platformId,
        accountId: credential.accountId,
        credentialId: credential.id,
        type: credential.type,
        nickname: credential.nickname,
        signingPublicKey: result.sessionPublicKey,
        state: 'ACTIVE',
        expiresAt: new Date(now.getTime() + deps.sessionTtlMs).toISOString(),
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
        operationId: record.run!.id,
      });
      return { session: authSessionView(session, result.encryptedSessionSigningKey) };
    },
  };

  const revokeCredential: OperationExecutor = {
    providerOperation: (record) => operation(record, 'REVOKE_CREDENTIAL', { credentialId: record.targetId }),
    async apply(record) {
      const credential = await deps.credentials.find(record.platformId, record.targetId);
      if (!credential) throw AppError.notFound('Authentication credential');
      if (credential.state === 'ACTIVE') {
        const now = deps.now();
        if (!(await deps.wallets.removeCredentialUnlessLast(credential.accountId))) {
          throw new AppError('LAST_CREDENTIAL', 'The only credential of an account cannot be revoked');
        }
        if (!(await deps.credentials.revoke(credential.id, now))) {
          await deps.wallets.addCredentials(credential.accountId, 1);
        }
      }
      await deps.sessions.revokeForCredential(credential.id, deps.now());
      return {};
    },
  };

  const revokeSession: OperationExecutor = {
    providerOperation: (record) => operation(record, 'REVOKE_SESSION', { sessionId: record.targetId }),
    async apply(record) {
      await deps.sessions.revoke(record.targetId, deps.now());
      return {};
    },
  };

  const exportWallet: OperationExecutor = {
    providerOperation: (record) =>
      operation(record, 'EXPORT_WALLET', { clientPublicKey: str(record, 'clientPublicKey') }),
    // The export itself is never kept: every answer asks the provider to seal it afresh.
    apply: async () => ({}),
    async present(record) {
      const answer = await deps.provider.submit(exportWallet.providerOperation(record));
      if (answer.status !== 'SETTLED') {
        throw new AppError('UNAVAILABLE', 'The wallet export is not available right now');
      }
      return {
        walletExport: {
          id: str(record, 'accountId'),
          encryptedWalletCredentials: answer.result.encryptedWalletCredentials,
        },
      };
    },
  };

  const updatePrivacy: OperationExecutor = {
    providerOperation: (record) =>
      operation(record, 'UPDATE_WALLET_PRIVACY', { privateEnabled: record.context.privateEnabled === true }),
    async apply(record) {
      const privateEnabled = record.context.privateEnabled === true;
      await deps.wallets.setPrivacy(str(record, 'accountId'), privateEnabled, deps.now());
      return { walletPrivacy: { accountId: str(record, 'accountId'), privateEnabled } };
    },
  };

  return {
    'credential.create': createCredential,
    'credential.verify': createSession,
    'session.refresh': createSession,
    'credential.revoke': revokeCredential,
    'session.revoke': revokeSession,
    'wallet.export': exportWallet,
    'wallet.privacy': updatePrivacy,
  };
}
