import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { authSessionView, isSessionActive, type AuthSessionView } from '../../domain/wallet-auth/wallet-session';
import { bodyOf, requireClientPublicKey, requireInternalAccountId } from './request-fields';
import { isFirstCall } from './signed-retry';
import type { Outcome, Signature, SignedFlow } from './signed-flow';
import type { SessionStore } from './wallet-auth-stores';

/** List, revoke and refresh the sessions of an embedded-wallet account. */
export function createSessions(deps: { sessions: SessionStore; flow: SignedFlow; now: () => Date }) {
  /** The first call needs an active session; retries are judged by their challenge. */
  async function sessionFor(platformId: string, id: string, signature: Signature | undefined) {
    const session = await deps.sessions.find(platformId, id);
    if (!session || (isFirstCall(signature) && !isSessionActive(session, deps.now()))) {
      throw AppError.notFound('Session');
    }
    return session;
  }

  return {
    async list(platformId: string, accountId: string): Promise<AuthSessionView[]> {
      requireInternalAccountId(accountId);
      return (await deps.sessions.listActive(platformId, accountId, deps.now())).map((s) => authSessionView(s));
    },

    /** Any active session of the account may sign, including the one being revoked (log out). */
    async revoke(platformId: string, id: string, rawBody: unknown, signature: Signature | undefined): Promise<Outcome> {
      const session = await sessionFor(platformId, id, signature);
      return deps.flow.run({
        request: { platformId, operation: 'session.revoke', targetId: id, body: bodyOf(rawBody) },
        signature,
        prepare: async () => ({
          signer: { kind: 'session', accountIds: [session.accountId] },
          type: session.type,
          context: { accountId: session.accountId },
          parameters: { sessionId: id },
        }),
      });
    },

    /** A new session of the same credential, its key sealed to `clientPublicKey`; signed by the session itself. */
    async refresh(
      platformId: string,
      id: string,
      rawBody: unknown,
      signature: Signature | undefined,
    ): Promise<Outcome> {
      const body = bodyOf(rawBody);
      const clientPublicKey = requireClientPublicKey(body);
      const session = await sessionFor(platformId, id, signature);
      return deps.flow.run({
        request: { platformId, operation: 'session.refresh', targetId: id, body },
        signature,
        prepare: async () => ({
          signer: { kind: 'session', accountIds: [session.accountId], sessionId: id },
          context: {
            accountId: session.accountId,
            credentialId: session.credentialId,
            sessionId: newId('Session'),
            clientPublicKey,
          },
          parameters: { sessionId: id, targetPublicKey: clientPublicKey },
        }),
      });
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
