import { Type } from '@sinclair/typebox';
import { contractJson } from './contract-json';
import { ClosedObject, DateTime, named, Nullable, StringEnum } from './schema-kit';

/*
 * The reference's ScaChallenge, as a quote (responses and QUOTE.* webhooks) and a beneficiary trust
 * change carry it; gateway/contract/sca-contract.ts adds the SCA operations.
 */

const SCA_FACTORS = ['SMS_OTP', 'TOTP', 'PASSKEY'] as const;
export const ScaFactor = named('ScaFactor', StringEnum(SCA_FACTORS));
/** An open object of a WebAuthn exchange, written as the client gives or takes it. */
export const Opaque = (description: string) => Type.Object({}, { additionalProperties: true, description });
export const Origins = Type.Array(Type.String());

export const ScaChallenge = named(
  'ScaChallenge',
  ClosedObject({
    id: Type.String({ description: '`ScaChallenge:<uuid>`' }),
    expiresAt: DateTime(),
    factor: ScaFactor,
    availableFactors: Type.Array(ScaFactor),
    purpose: Type.Optional(Nullable(Type.String())),
    passkeyAssertionOptions: Type.Optional(Nullable(Opaque('WebAuthn PublicKeyCredentialRequestOptions (JSON)'))),
    passkeyAllowedOrigins: Type.Optional(Nullable(Origins)),
  }),
);

/** A WebAuthn open object the messages carry as JSON text (`...Json`), as the object REST shows. */
export const parsedJson = (json: string | undefined) => (json ? JSON.parse(json) as object : undefined);

/** The REST ScaChallenge of a challenge message (the accounts service's or a quote's). */
export const scaChallengeJson = (c: { passkeyAssertionOptionsJson?: string }) =>
  contractJson(ScaChallenge, { ...c, passkeyAssertionOptions: parsedJson(c.passkeyAssertionOptionsJson) });
