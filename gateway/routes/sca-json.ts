import type { ScaChallengeView, StartScaEnrollmentResponse, StartScaLoginResponse } from '../../gen/accounts/v1/sca';
import { withoutAbsent } from './rest-request';

const parsed = (
  json: string | undefined,
) => (json === undefined ? undefined : JSON.parse(json) as Record<string, unknown>);

/** The reference's ScaChallenge; shared by trust changes and quotes. */
export function scaChallengeJson(c: ScaChallengeView) {
  return withoutAbsent({
    id: c.id,
    expiresAt: c.expiresAt,
    factor: c.factor,
    availableFactors: c.availableFactors,
    purpose: c.purpose,
    passkeyAssertionOptions: parsed(c.passkeyAssertionOptionsJson),
    passkeyAllowedOrigins: c.passkeyAllowedOrigins.length ? c.passkeyAllowedOrigins : undefined,
  });
}

export function enrollmentStartJson(r: StartScaEnrollmentResponse) {
  return r.type === 'TOTP'
    ? { type: 'TOTP', secret: r.secret, secretBase32Encoded: r.secretBase32Encoded, totpUri: r.totpUri }
    : {
      type: 'PASSKEY',
      options: parsed(r.optionsJson),
      allowedOrigins: r.allowedOrigins,
      relyingPartyId: r.relyingPartyId,
    };
}

export function loginStartJson(r: StartScaLoginResponse) {
  return withoutAbsent({
    factor: r.factor,
    challengeId: r.challengeId,
    expiresAt: r.expiresAt,
    passkeyOptions: parsed(r.passkeyOptionsJson),
    allowedOrigins: r.allowedOrigins.length ? r.allowedOrigins : undefined,
    relyingPartyId: r.relyingPartyId,
  });
}
