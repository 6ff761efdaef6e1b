import { WalletAuthServiceService } from '../../../gen/auth/v1/wallet_auth';
import { AppError } from '../../../lib/errors';
import { requirePlatform, type CallContext } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { WalletAuth } from '../wallet-auth-module';
import { toAuthMethod, toAuthSession, toOutcome } from './wallet-auth-messages';

/** Thin handlers: decode, call one use case with the caller's platform, encode. */
export function bindWalletAuthService(auth: WalletAuth) {
  const platform = (ctx: CallContext) => requirePlatform(ctx);
  /** The REST body a request message stands for: its members other than the path ids and the signature headers. */
  const bodyOf = <T extends { id?: string; accountId?: string; signature?: unknown }>(request: T) => {
    const { id: _id, accountId: _accountId, signature: _signature, ...body } = request;
    return body;
  };
  return bindService(WalletAuthServiceService, {
    async listCredentials(request, ctx) {
      return { credentials: (await auth.credentials.list(platform(ctx), request.accountId)).map(toAuthMethod) };
    },
    async createCredential(request, ctx) {
      // accountId is a member of this body, not a path id.
      const { signature, ...body } = request;
      return { outcome: toOutcome(await auth.credentials.create(platform(ctx), body, signature)) };
    },
    async challengeCredential(request, ctx) {
      const answer = await auth.challenge.challenge(platform(ctx), request.id, bodyOf(request));
      if (answer.kind === 'authMethod') {
        return { outcome: { outcome: { $case: 'authMethod' as const, value: toAuthMethod(answer.authMethod) } } };
      }
      const { authMethod, challenge, requestId, expiresAt } = answer;
      return {
        outcome: {
          outcome: {
            $case: 'passkeyChallenge' as const,
            value: { authMethod: toAuthMethod(authMethod), challenge, requestId, expiresAt },
          },
        },
      };
    },
    async verifyCredential(request, ctx) {
      return {
        outcome: toOutcome(await auth.verify.verify(platform(ctx), request.id, bodyOf(request), request.signature)),
      };
    },
    async revokeCredential(request, ctx) {
      return {
        outcome: toOutcome(
          await auth.credentials.revoke(platform(ctx), request.id, bodyOf(request), request.signature),
        ),
      };
    },
    async listSessions(request, ctx) {
      return { sessions: (await auth.sessions.list(platform(ctx), request.accountId)).map(toAuthSession) };
    },
    async revokeSession(request, ctx) {
      return {
        outcome: toOutcome(await auth.sessions.revoke(platform(ctx), request.id, bodyOf(request), request.signature)),
      };
    },
    async refreshSession(request, ctx) {
      return {
        outcome: toOutcome(await auth.sessions.refresh(platform(ctx), request.id, bodyOf(request), request.signature)),
      };
    },
    async exportWallet(request, ctx) {
      return {
        outcome: toOutcome(
          await auth.wallet.exportWallet(platform(ctx), request.accountId, bodyOf(request), request.signature),
        ),
      };
    },
    async updateWalletPrivacy(request, ctx) {
      return {
        outcome: toOutcome(
          await auth.wallet.updatePrivacy(platform(ctx), request.accountId, bodyOf(request), request.signature),
        ),
      };
    },
    async getWalletPrivacy(request, ctx) {
      return { privateEnabled: await auth.wallet.privacyOf(platform(ctx), request.accountId) };
    },
    async getEnclavePublicKey() {
      return { publicKey: auth.enclavePublicKey };
    },
    async provisionWallet(request, ctx) {
      if (ctx.platformId && request.platformId && ctx.platformId !== request.platformId) {
        throw AppError.invalidInput('platformId differs from the calling platform');
      }
      const result = await auth.provisioning.provision({
        accountId: request.accountId,
        platformId: request.platformId || platform(ctx),
        customerEmail: request.customerEmail,
        customerPhone: request.customerPhone,
      });
      return {
        created: result.created,
        ...(result.emailOtpCredential ? { emailOtpCredential: toAuthMethod(result.emailOtpCredential) } : {}),
      };
    },
    async listEmailOtpAccounts(request, ctx) {
      return { accountIds: await auth.provisioning.listEmailOtpAccounts(platform(ctx), request.accountIds) };
    },
    async syncEmailOtpEmail(request, ctx) {
      return {
        credentialIds: await auth.provisioning.syncEmailOtpEmail(platform(ctx), request.accountIds, request.newEmail),
      };
    },
  });
}
