import type { AddressFields } from '../../../gen/accounts/v1/external_account_info';
import type {
  BusinessInfoFields,
  CustomerFields,
  StringList,
  TermsConsentFields,
} from '../../../gen/accounts/v1/customer_requests';
import type { Address, BusinessInfo, CustomerProfile, EndUserTermsConsent } from './customer';

/* The customer request messages as the domain's values. Their shapes (formats, lengths, enums) are
   the contract's (lib/contract/customer-requests.ts), checked before a request gets here. */

/** `$user@domain`, as UMA addresses are written. */
export const UMA_ADDRESS = /^\$[a-zA-Z0-9._+-]{1,64}@[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$/;

/** Copies the defined entries only, so absent members stay absent. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const list = (l: StringList | undefined) => l && [...l.values];

export function addressOf(a: AddressFields): Address {
  return defined({
    line1: a.line1 ?? '',
    line2: a.line2,
    city: a.city,
    state: a.state,
    postalCode: a.postalCode ?? '',
    country: a.country ?? '',
  });
}

function consentOf(c: TermsConsentFields): EndUserTermsConsent {
  return {
    acceptedAt: c.acceptedAt ?? '',
    ipAddress: c.ipAddress ?? '',
    termsVersion: c.termsVersion ?? '',
    acceptanceMethod: c.acceptanceMethod ?? '',
  };
}

/** Members every customer type accepts (create and update). */
export function contactProfileOf(f: CustomerFields): CustomerProfile {
  return defined({
    email: f.email,
    phoneNumber: f.phoneNumber,
    umaAddress: f.umaAddress,
    address: f.address && addressOf(f.address),
    endUserTermsConsent: f.endUserTermsConsent && consentOf(f.endUserTermsConsent),
  });
}

/** The members of CustomerFields every customer type takes: the rest are the type's own profile. */
const SHARED_MEMBERS = new Set<string>([
  'customerType',
  'platformCustomerId',
  'region',
  'currencies',
  'email',
  'phoneNumber',
  'umaAddress',
  'address',
  'endUserTermsConsent',
  'businessInfo',
]);

const isList = (v: unknown): v is StringList => typeof v === 'object' && v !== null && 'values' in v;

/** The given text and list members (a list message becomes its array), save those in `leaveOut`. */
function profileMembers(fields: object, leaveOut = new Set<string>()): Record<string, unknown> {
  return defined(Object.fromEntries(
    Object.entries(fields)
      .filter(([key]) => !leaveOut.has(key))
      .map(([key, v]) => [key, isList(v) ? list(v) : v]),
  ));
}

/** An individual's own members: every CustomerFields member that is not shared, by the same name. */
export function individualProfileOf(f: CustomerFields): CustomerProfile {
  return profileMembers(f, SHARED_MEMBERS) as CustomerProfile;
}

export function businessInfoOf(b: BusinessInfoFields): BusinessInfo {
  return profileMembers(b) as BusinessInfo;
}
