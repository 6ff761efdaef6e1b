import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { authMethodView, otpChannelOf, type AuthMethodView } from '../../domain/wallet-auth/auth-method';
import { canonicalJson } from '../../domain/wallet-auth/canonical-json';
import { activityTypeOf, passkeyChallengeOf } from '../../domain/wallet-auth/payload-to-sign';
import type { OtpIssuer } from './otp-issuer';
import { bodyOf, requireClientPublicKey } from './request-fields';
import type { ChallengeView, SignedRetry } from './signed-retry';
import type { CredentialStore } from './wallet-auth-stores';

export type ChallengeAnswer =
  | { kind: 'authMethod'; authMethod: AuthMethodView }
  | { kind: 'passkeyChallenge'; authMethod: AuthMethodView; challenge: string; requestId: string; expiresAt: string };

/**
 * Issues (or re-issues) a credential's challenge: a new OTP for EMAIL_OTP / SMS_OTP, a WebAuthn
 * challenge bound to the client's key for PASSKEY. OAUTH has no challenge step.
 */
export function createCredentialChallenge(
  deps: { credentials: CredentialStore; otp: OtpIssuer; signedRetry: SignedRetry },
) {
  return {
    async challenge(platformId: string, id: string, rawBody: unknown): Promise<ChallengeAnswer> {
      const credential = await deps.credentials.find(platformId, id);
      if (!credential || credential.state !== 'ACTIVE') throw AppError.notFound('Authentication credential');
      if (otpChannelOf(credential.type)) {
        const issued = await deps.otp.issue(credential);
        return { kind: 'authMethod', authMethod: authMethodView(issued.credential, issued.bundle) };
      }
      if (credential.type !== 'PASSKEY') {
        throw AppError.invalidInput('OAUTH credentials have no challenge step; verify with a fresh token');
      }
      const clientPublicKey = requireClientPublicKey(bodyOf(rawBody));
      // The WebAuthn challenge commits to the pending session, including the key it will be sealed to.
      const sessionPayload = (requestId: string, issuedAt: Date) =>
        passkeyChallengeOf(
          canonicalJson({
            organizationId: platformId,
            parameters: { credentialId: credential.credentialId, targetPublicKey: clientPublicKey },
            requestId,
            timestampMs: String(issuedAt.getTime()),
            type: activityTypeOf('session.create'),
          }),
        );
      const challenge: ChallengeView = await deps.signedRetry.begin({
        platformId,
        operation: 'credential.verify',
        targetId: id,
        body: {},
        signer: { kind: 'assertion', credentialId: id },
        type: 'PASSKEY',
        fixedPayload: sessionPayload,
        context: { accountId: credential.accountId, credentialId: id, sessionId: newId('Session'), clientPublicKey },
      });
      return {
        kind: 'passkeyChallenge',
        authMethod: authMethodView(credential),
        challenge: challenge.payloadToSign,
        requestId: challenge.requestId,
        expiresAt: challenge.expiresAt,
      };
    },
  };
}

export type CredentialChallenge = ReturnType<typeof createCredentialChallenge>;
