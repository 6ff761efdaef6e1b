import type {
  AddressFields,
  Beneficiary,
  Beneficiary_Type,
  ExternalAccountInfo,
} from '../../gen/accounts/v1/external_account_info';
import type { CreateExternalAccountRequest } from '../../gen/accounts/v1/external_account_requests';
import { ACCOUNT_INFO_MEMBERS } from '../../lib/contract/external-account-types';
import { RestBody } from './rest-body';

/* REST bodies of external accounts and their ownership verification → request members. */

/** A postal address member (beneficiaries here, customers too). */
export const address = (b: RestBody): AddressFields => ({
  line1: b.string('line1'),
  line2: b.string('line2'),
  city: b.string('city'),
  state: b.string('state'),
  postalCode: b.string('postalCode'),
  country: b.string('country'),
});

const beneficiary = (b: RestBody): Beneficiary => ({
  beneficiaryType: b.string<Beneficiary_Type>('beneficiaryType'),
  email: b.string('email'),
  phoneNumber: b.string('phoneNumber'),
  address: b.object('address', address),
  fullName: b.string('fullName'),
  birthDate: b.string('birthDate'),
  nationality: b.string('nationality'),
  countryOfResidence: b.string('countryOfResidence'),
  legalName: b.string('legalName'),
  registrationNumber: b.string('registrationNumber'),
  taxId: b.string('taxId'),
});

/** Every text member of every account type (the table's), each a member of the request message. */
const TEXT_MEMBERS = ['accountType', ...ACCOUNT_INFO_MEMBERS];

const accountInfo = (b: RestBody): ExternalAccountInfo => ({
  ...Object.fromEntries(TEXT_MEMBERS.map((key) => [key, b.string(key)])),
  paymentRails: b.strings('paymentRails'),
  beneficiary: b.object('beneficiary', beneficiary),
});

/** POST /customers/external-accounts and POST /platform/external-accounts (the latter without the customer members). */
export function createExternalAccountRequest(
  body: unknown,
  owner: 'CUSTOMER' | 'PLATFORM',
): CreateExternalAccountRequest {
  const b = RestBody.of(body);
  const request: CreateExternalAccountRequest = {
    currency: b.string('currency'),
    platformAccountId: b.string('platformAccountId'),
    ownershipType: b.string('ownershipType'),
    accountInfo: b.object('accountInfo', accountInfo),
    ...(owner === 'CUSTOMER'
      ? { customerId: b.string('customerId'), defaultUmaDepositAccount: b.boolean('defaultUmaDepositAccount') }
      : {}),
  };
  b.done('Invalid external account');
  return request;
}

export function ownershipChallengeBody(body: unknown): { method?: string } {
  const b = RestBody.of(body);
  const out = { method: b.string('method') };
  b.done('Invalid ownership challenge');
  return out;
}

export function ownershipVerifyBody(body: unknown): { signature?: string; signatureScheme?: string } {
  const b = RestBody.of(body);
  const out = { signature: b.string('signature'), signatureScheme: b.string('signatureScheme') };
  b.done('Invalid ownership verification');
  return out;
}
