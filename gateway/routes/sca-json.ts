import type { StartScaEnrollmentResponse, StartScaLoginResponse } from '../../gen/accounts/v1/sca';
import { contractJson } from '../../lib/contract/contract-json';
import { parsedJson } from '../../lib/contract/sca-challenge';
import { LoginStart, PasskeyEnrollmentStart, TotpEnrollmentStart } from '../contract/sca-contract';

/* SCA answers → REST JSON; the WebAuthn options the messages carry as JSON text are written as the objects. */

export const enrollmentStartJson = (r: StartScaEnrollmentResponse) =>
  r.type === 'TOTP'
    ? contractJson(TotpEnrollmentStart, r)
    : contractJson(PasskeyEnrollmentStart, { ...r, options: parsedJson(r.optionsJson) });

export const loginStartJson = (r: StartScaLoginResponse) =>
  contractJson(LoginStart, { ...r, passkeyOptions: parsedJson(r.passkeyOptionsJson) });
