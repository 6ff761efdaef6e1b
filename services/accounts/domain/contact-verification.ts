import { AppError } from '../../../lib/errors';
import { EEA_COUNTRIES } from './eea-countries';

export type ContactChannelStatus = 'PENDING' | 'VERIFIED';
export type ContactChannel = 'email' | 'phone';

/** Per channel; a channel is present only when the customer's region requires it. */
export interface ContactVerificationState {
  email?: ContactChannelStatus;
  phone?: ContactChannelStatus;
}

/** Regions (EU and EEA) whose provider requires both email and phone to be verified before KYC. */
export const CONTACT_VERIFICATION_REGIONS: readonly string[] = EEA_COUNTRIES;

/** The state a new customer of `region` starts with; undefined where nothing is required. */
export function initialContactVerification(region: string | undefined): ContactVerificationState | undefined {
  return region && CONTACT_VERIFICATION_REGIONS.includes(region) ? { email: 'PENDING', phone: 'PENDING' } : undefined;
}

/** KYC cannot start before every required channel is VERIFIED (409). */
export function assertContactVerified(customer: { contactVerification?: ContactVerificationState }): void {
  const state = customer.contactVerification;
  if (!state) return;
  const pending = (Object.entries(state) as [ContactChannel, ContactChannelStatus][]).filter(([, s]) =>
    s !== 'VERIFIED'
  ).map(([c]) => c);
  if (pending.length) {
    throw new AppError('CONFLICT', `Contact verification is incomplete: verify ${pending.join(' and ')} first`, {
      pendingChannels: pending,
    });
  }
}
