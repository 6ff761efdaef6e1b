import type { ScaChallengeView, StartScaEnrollmentResponse, StartScaLoginResponse } from '../../gen/accounts/v1/sca';
import { contractJson } from '../../lib/contract/contract-json';
import { LoginStart, PasskeyEnrollmentStart, ScaChallenge, TotpEnrollmentStart } from '../contract/sca-contract';

/*
 * SCA answers → REST JSON. The WebAuthn options are open objects the messages carry as JSON strings (`...Json`);
 * REST shows them as the objects.
 */

const parsed = (json: string | undefined) => (json === undefined ? undefined : JSON.parse(json) as object);

/** The reference's ScaChallenge of a beneficiary trust change. */
export const scaChallengeJson = (c: ScaChallengeView) =>
  contractJson(ScaChallenge, { ...c, passkeyAssertionOptions: parsed(c.passkeyAssertionOptionsJson) });

export const enrollmentStartJson = (r: StartScaEnrollmentResponse) =>
  r.type === 'TOTP'
    ? contractJson(TotpEnrollmentStart, r)
    : contractJson(PasskeyEnrollmentStart, { ...r, options: parsed(r.optionsJson) });

export const loginStartJson = (r: StartScaLoginResponse) =>
  contractJson(LoginStart, { ...r, passkeyOptions: parsed(r.passkeyOptionsJson) });
