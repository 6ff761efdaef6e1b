/** PSD2's three categories of authentication elements (RTS art. 6 to 8). */
export type FactorCategory = 'KNOWLEDGE' | 'POSSESSION' | 'INHERENCE';
export type ScaFactorKind = 'SMS_OTP' | 'TOTP' | 'PASSKEY';

/**
 * What each factor proves, written once. An SMS code or a TOTP code proves possession of the phone
 * or the authenticator (the platform's own login of its customer is the knowledge element). A
 * passkey proves possession of its private key and, by its user verification (a biometric or the
 * device PIN), a second element: on its own it is two factors.
 */
export const FACTOR_CATEGORIES: Record<ScaFactorKind, readonly FactorCategory[]> = {
  SMS_OTP: ['POSSESSION'],
  TOTP: ['POSSESSION'],
  PASSKEY: ['POSSESSION', 'INHERENCE'],
};

/** Every step (login, trust change, payment) needs a possession element bound to it. */
export const STEP_REQUIRES: readonly FactorCategory[] = ['POSSESSION'];

/**
 * Whether a proof of `factor` that showed `proved` satisfies a step: it must show every category the
 * table lists for its factor (a passkey without user verification is possession only) and the step's.
 */
export function satisfiesStep(factor: ScaFactorKind, proved: readonly FactorCategory[]): boolean {
  return [...FACTOR_CATEGORIES[factor], ...STEP_REQUIRES].every((c) => proved.includes(c));
}
