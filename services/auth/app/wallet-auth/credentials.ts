import { AppError } from '../../../../lib/errors';
import { authMethodView, type AuthMethodView, type Credential } from '../../domain/wallet-auth/auth-method';
import type { CredentialRegistration } from './credential-registration';
import { bodyOf, requireInternalAccountId, requireType } from './request-fields';
import { isFirstCall } from './signed-retry';
import type { Outcome, Signature, SignedFlow } from './signed-flow';
import type { CredentialStore, WalletStore } from './wallet-auth-stores';

export interface CredentialsDeps {
  credentials: CredentialStore;
  wallets: WalletStore;
  registration: CredentialRegistration;
  flow: SignedFlow;
}

/** List, add and revoke the credentials of an embedded-wallet account. */
export function createCredentials(deps: CredentialsDeps) {
  async function walletOf(platformId: string, accountId: string) {
    const wallet = await deps.wallets.find(platformId, accountId);
    if (!wallet) throw AppError.notFound('Internal account');
    return wallet;
  }

  return {
    async list(platformId: string, accountId: string): Promise<AuthMethodView[]> {
      requireInternalAccountId(accountId);
      return (await deps.credentials.listActive(platformId, accountId)).map((c) => authMethodView(c));
    },

    /** 201 at once for an account without credentials; otherwise the signed retry of an existing one. */
    async create(platformId: string, rawBody: unknown, signature: Signature | undefined): Promise<Outcome> {
      const body = bodyOf(rawBody);
      const type = requireType(body);
      const accountId = requireInternalAccountId(body.accountId);
      const wallet = await walletOf(platformId, accountId);
      const request = { platformId, operation: 'credential.create', targetId: accountId, body };
      const existing = await deps.credentials.listActive(platformId, accountId);
      if (existing.length === 0 && isFirstCall(signature)) {
        return deps.flow.runUnsigned({
          ...request,
          type,
          check: async () => ({ accountId, credential: await deps.registration.prepare(wallet, type, body) }),
        });
      }
      return deps.flow.run({
        request,
        signature,
        prepare: async () => {
          const credential = await deps.registration.prepare(wallet, type, body);
          return {
            signer: { kind: 'session', accountIds: [accountId] },
            type,
            context: { accountId, credential },
            parameters: { accountId, credentialType: type, nickname: credential.nickname },
          };
        },
        beforeClaim: async (record) => {
          if (type !== 'OAUTH') return undefined;
          return { credential: await deps.registration.recheckOauth(record.context.credential as Credential, body) };
        },
      });
    },

    /** Needs a session of another credential; the only credential cannot be revoked. */
    async revoke(platformId: string, id: string, rawBody: unknown, signature: Signature | undefined): Promise<Outcome> {
      const credential = await deps.credentials.find(platformId, id);
      if (!credential || (isFirstCall(signature) && credential.state !== 'ACTIVE')) {
        throw AppError.notFound('Authentication credential');
      }
      const accountId = credential.accountId;
      return deps.flow.run({
        request: { platformId, operation: 'credential.revoke', targetId: id, body: bodyOf(rawBody) },
        signature,
        prepare: async () => {
          const active = await deps.credentials.listActive(platformId, accountId);
          if (active.length <= 1) {
            throw new AppError('LAST_CREDENTIAL', 'The only credential of an account cannot be revoked');
          }
          return {
            signer: { kind: 'session', accountIds: [accountId], excludeCredentialId: id },
            type: credential.type,
            context: { accountId },
            parameters: { accountId, credentialId: id },
          };
        },
      });
    },
  };
}

export type Credentials = ReturnType<typeof createCredentials>;
