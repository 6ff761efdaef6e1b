import type { BusinessInfoFields, CustomerFields, TermsConsentFields } from '../../gen/accounts/v1/customer_requests';
import { address } from './external-account-requests';
import { RestBody } from './rest-body';

/* REST bodies of POST /customers and PATCH /customers/{id} → CustomerFields. */

const consent = (b: RestBody): TermsConsentFields => ({
  acceptedAt: b.string('acceptedAt'),
  ipAddress: b.string('ipAddress'),
  termsVersion: b.string('termsVersion'),
  acceptanceMethod: b.string('acceptanceMethod'),
});

const textMembers = <K extends string>(b: RestBody, keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, b.string(k)])) as Record<K, string | undefined>;

const BUSINESS_TEXT = [
  'legalName',
  'doingBusinessAs',
  'country',
  'registrationNumber',
  'incorporatedOn',
  'entityType',
  'taxId',
  'businessType',
  'purposeOfAccount',
  'sourceOfFunds',
  'expectedMonthlyTransactionCount',
  'expectedMonthlyTransactionVolume',
  'naicsCode',
  'sourceOfFundsOtherDescription',
  'purposeOfAccountOtherDescription',
  'primaryContactFirstName',
  'primaryContactLastName',
] as const;

const businessInfo = (b: RestBody): BusinessInfoFields => ({
  ...textMembers(b, BUSINESS_TEXT),
  countriesOfOperation: b.stringList('countriesOfOperation'),
  expectedRecipientJurisdictions: b.stringList('expectedRecipientJurisdictions'),
  sourceOfFundsCategories: b.stringList('sourceOfFundsCategories'),
  expectedCounterpartyCountries: b.stringList('expectedCounterpartyCountries'),
});

const CUSTOMER_TEXT = [
  'customerType',
  'platformCustomerId',
  'region',
  'email',
  'phoneNumber',
  'umaAddress',
  'fullName',
  'birthDate',
  'nationality',
  'idType',
  'identifier',
  'countryOfIssuance',
  'sourceOfFundsOtherDescription',
  'sourceOfWealthOtherDescription',
  'purposeOfAccount',
  'purposeOfAccountOtherDescription',
  'expectedMonthlyTransactionCount',
  'expectedMonthlyTransactionVolume',
  'annualIncomeRange',
  'netWorthRange',
  'pepStatus',
] as const;

export function customerFields(body: unknown, message: string): CustomerFields {
  const b = RestBody.of(body);
  const fields: CustomerFields = {
    ...textMembers(b, CUSTOMER_TEXT),
    currencies: b.stringList('currencies'),
    sourceOfFundsCategories: b.stringList('sourceOfFundsCategories'),
    sourceOfWealthCategories: b.stringList('sourceOfWealthCategories'),
    address: b.object('address', address),
    endUserTermsConsent: b.object('endUserTermsConsent', consent),
    businessInfo: b.object('businessInfo', businessInfo),
  };
  b.done(message);
  return fields;
}
