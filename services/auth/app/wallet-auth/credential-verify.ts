import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { otpChannelOf } from '../../domain/wallet-auth/auth-method';
import { oidcNonceFor, type OidcVerifier } from '../../domain/oidc/create-oidc-verifier';
import { checkOtpAttempt } from './otp-verification';
import type { OtpIssuer } from './otp-issuer';
import { bodyOf, requireClientPublicKey, requireString, requireType } from './request-fields';
import { isFirstCall } from './signed-retry';
import type { Outcome, Signature, SignedFlow } from './signed-flow';
import type { PlatformSettingsSource } from './wallet-auth-ports';
import type { CredentialStore } from './wallet-auth-stores';

export interface CredentialVerifyDeps {
  credentials: CredentialStore;
  otp: OtpIssuer;
  flow: SignedFlow;
  platforms: PlatformSettingsSource;
  oidc: OidcVerifier;
  otpReissueIntervalMs: number;
  now: () => Date;
}

/** Verify a credential: mints a session (OTP via its signed retry, PASSKEY via its challenge, OAUTH at once). */
export function createCredentialVerify(deps: CredentialVerifyDeps) {
  return {
    async verify(platformId: string, id: string, rawBody: unknown, signature: Signature | undefined): Promise<Outcome> {
      const body = bodyOf(rawBody);
      const credential = await deps.credentials.find(platformId, id);
      if (!credential || (isFirstCall(signature) && credential.state !== 'ACTIVE')) {
        throw AppError.notFound('Authentication credential');
      }
      if (requireType(body) !== credential.type) {
        throw AppError.invalidInput(`type must be ${credential.type} for this credential`, [{
          field: 'type',
          constraint: { enum: [credential.type] },
        }]);
      }
      const request = { platformId, operation: 'credential.verify', targetId: id, body };
      const context = { accountId: credential.accountId, credentialId: id, sessionId: newId('Session') };

      if (otpChannelOf(credential.type)) {
        const encryptedOtpBundle = requireString(body, 'encryptedOtpBundle', 8192);
        return deps.flow.run({
          request,
          signature,
          prepare: async () => {
            const { publicKey } = await checkOtpAttempt({
              credentials: deps.credentials,
              otp: deps.otp,
              credential,
              encryptedOtpBundle,
              reissueIntervalMs: deps.otpReissueIntervalMs,
              now: deps.now(),
            });
            return {
              signer: { kind: 'key', publicKey },
              type: credential.type,
              context: { ...context, sessionPublicKey: publicKey },
              parameters: { credentialId: id, publicKey },
            };
          },
        });
      }
      if (credential.type === 'PASSKEY') {
        if (!signature?.requestId) {
          throw new AppError('REQUEST_ID_MISSING', 'Request-Id from the passkey challenge is required');
        }
        return deps.flow.completeAssertion(request, signature.requestId);
      }
      const clientPublicKey = requireClientPublicKey(body);
      const oidcToken = requireString(body, 'oidcToken');
      return deps.flow.runUnsigned({
        ...request,
        type: 'OAUTH',
        check: async () => {
          const settings = await deps.platforms.settingsFor(platformId);
          if (!credential.oauth) throw new AppError('INTERNAL_ERROR', 'OAUTH credential without identity');
          await deps.oidc.verify(oidcToken, {
            allowedIssuers: settings.oidc.issuers,
            allowedAudiences: settings.oidc.audiences,
            mode: settings.sandbox ? 'sandbox' : 'live',
            expectedIdentity: credential.oauth,
            ...(settings.sandbox ? { expectedNonce: oidcNonceFor(clientPublicKey) } : {}),
          });
          return { ...context, clientPublicKey };
        },
      });
    },
  };
}

export type CredentialVerify = ReturnType<typeof createCredentialVerify>;
