import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { ALREADY_EXISTS_CODE, type AuthMethodType, type Credential } from '../../domain/wallet-auth/auth-method';
import type { OidcVerifier } from '../../domain/oidc/create-oidc-verifier';
import { verifyPasskeyRegistration, type PasskeyAttestation } from '../../domain/passkey/verify-passkey-registration';
import { requireNickname, requireObject, requireString, type Body } from './request-fields';
import type { PlatformSettingsSource } from './wallet-auth-ports';
import type { CredentialStore, Wallet } from './wallet-auth-stores';

export interface RegistrationDeps {
  credentials: CredentialStore;
  platforms: PlatformSettingsSource;
  oidc: OidcVerifier;
  now: () => Date;
}

/**
 * Turns a create-credential body into the credential to register, after the checks its type
 * needs: the contact on file for OTP types, the attestation for PASSKEY, the id token for OAUTH.
 * Duplicates are refused here already; the unique index refuses them again when applied.
 */
export function createCredentialRegistration(deps: RegistrationDeps) {
  const exists = (type: AuthMethodType) =>
    new AppError(ALREADY_EXISTS_CODE[type], `The account already has this ${type} credential`);

  async function oauthIdentity(platformId: string, accountId: string, token: string) {
    const settings = await deps.platforms.settingsFor(platformId);
    const verified = await deps.oidc.verify(token, {
      allowedIssuers: settings.oidc.issuers,
      allowedAudiences: settings.oidc.audiences,
      mode: settings.sandbox ? 'sandbox' : 'live',
    });
    const same = (await deps.credentials.listActive(platformId, accountId)).find(
      (c) => c.type === 'OAUTH' && c.oauth?.iss === verified.iss && c.oauth?.sub === verified.sub,
    );
    if (same) {
      throw AppError.invalidInput('This OAuth identity is already registered on the account', [{
        field: 'oidcToken',
        message: 'identity already registered',
      }]);
    }
    return {
      oauth: { iss: verified.iss, aud: verified.aud, sub: verified.sub },
      nickname: verified.email ?? verified.sub,
    };
  }

  return {
    async prepare(wallet: Wallet, type: AuthMethodType, body: Body): Promise<Credential> {
      const now = deps.now().toISOString();
      const base = {
        id: newId('AuthMethod'),
        platformId: wallet.platformId,
        accountId: wallet.accountId,
        type,
        state: 'ACTIVE' as const,
        createdAt: now,
        updatedAt: now,
      };
      switch (type) {
        case 'EMAIL_OTP':
        case 'SMS_OTP': {
          const contact = type === 'EMAIL_OTP' ? wallet.customerEmail : wallet.customerPhone;
          if (!contact) {
            throw AppError.invalidInput(
              `The customer has no ${type === 'EMAIL_OTP' ? 'email' : 'phone number'} on file`,
            );
          }
          if (await deps.credentials.findActiveByType(wallet.platformId, wallet.accountId, type)) throw exists(type);
          return { ...base, nickname: contact };
        }
        case 'PASSKEY': {
          const nickname = requireNickname(body);
          const challenge = requireString(body, 'challenge', 2048);
          const attestation = requireObject(body, 'attestation');
          const { passkey } = await deps.platforms.settingsFor(wallet.platformId);
          const registered = await verifyPasskeyRegistration({
            challenge,
            attestation: attestation as unknown as PasskeyAttestation,
            rpIds: passkey.rpIds,
            origins: passkey.origins,
            requireUserVerification: passkey.requireUserVerification,
          });
          if (await deps.credentials.findActivePasskey(registered.credentialId)) throw exists('PASSKEY');
          return {
            ...base,
            nickname,
            credentialId: registered.credentialId,
            passkey: {
              publicKey: registered.publicKey,
              counter: registered.counter,
              transports: registered.transports,
            },
          };
        }
        case 'OAUTH': {
          const identity = await oauthIdentity(wallet.platformId, wallet.accountId, requireString(body, 'oidcToken'));
          return { ...base, ...identity };
        }
      }
    },
    /** OAUTH: the token is checked again when the signed retry arrives (issuer keys, freshness). */
    async recheckOauth(credential: Credential, body: Body): Promise<Credential> {
      const identity = await oauthIdentity(
        credential.platformId,
        credential.accountId,
        requireString(body, 'oidcToken'),
      );
      return { ...credential, ...identity };
    },
  };
}

export type CredentialRegistration = ReturnType<typeof createCredentialRegistration>;
