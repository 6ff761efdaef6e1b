import type { Address, BusinessInfo, CustomerProfile, EndUserTermsConsent } from './customer';
import {
  ANNUAL_INCOME_RANGES, BUSINESS_SOURCE_OF_FUNDS, BUSINESS_TYPES, ENTITY_TYPES, ID_TYPES, INDIVIDUAL_SOURCE_OF_FUNDS,
  MONTHLY_TRANSACTION_COUNTS, MONTHLY_TRANSACTION_VOLUMES, NET_WORTH_RANGES, PEP_STATUSES, PURPOSES_OF_ACCOUNT,
  SOURCE_OF_WEALTH, TERMS_ACCEPTANCE_METHODS,
} from '../../../lib/contract/customer-vocabulary';
import type { FieldReader, JsonObject, StringRules } from './field-reader';
import { E164 } from '../../../lib/value-formats';

/** Free text: non-empty and bounded. */
export const TEXT: StringRules = { minLength: 1, maxLength: 255 };
const DESCRIPTION: StringRules = { minLength: 1, maxLength: 500 };
const COUNTRY: StringRules = { format: 'iso3166-1-alpha-2' };
/** `$user@domain`, as UMA addresses are written. */
export const UMA_ADDRESS = /^\$[a-zA-Z0-9._+-]{1,64}@[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$/;
const NAICS = /^\d{2,6}$/;

/** Copies the defined entries only, so absent members stay absent. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function readAddress(r: FieldReader, body: JsonObject, field: string): Address | undefined {
  const obj = r.object(body, 'address', field);
  if (!obj) return undefined;
  const before = r.errors.length;
  const address = defined({
    line1: r.string(obj, 'line1', `${field}.line1`, { ...TEXT, required: true }),
    line2: r.string(obj, 'line2', `${field}.line2`, TEXT),
    city: r.string(obj, 'city', `${field}.city`, TEXT),
    state: r.string(obj, 'state', `${field}.state`, TEXT),
    postalCode: r.string(obj, 'postalCode', `${field}.postalCode`, { minLength: 1, maxLength: 20, required: true }),
    country: r.string(obj, 'country', `${field}.country`, { ...COUNTRY, required: true }),
  });
  return r.errors.length === before ? (address as Address) : undefined;
}

function readTermsConsent(r: FieldReader, body: JsonObject): EndUserTermsConsent | undefined {
  const obj = r.object(body, 'endUserTermsConsent', 'endUserTermsConsent');
  if (!obj) return undefined;
  const before = r.errors.length;
  const consent = {
    acceptedAt: r.string(obj, 'acceptedAt', 'endUserTermsConsent.acceptedAt', { format: 'date-time', required: true }),
    ipAddress: r.string(obj, 'ipAddress', 'endUserTermsConsent.ipAddress', { maxLength: 45, format: 'ip', required: true }),
    termsVersion: r.string(obj, 'termsVersion', 'endUserTermsConsent.termsVersion', { minLength: 1, maxLength: 64, required: true }),
    acceptanceMethod: r.enumValue(obj, 'acceptanceMethod', 'endUserTermsConsent.acceptanceMethod', TERMS_ACCEPTANCE_METHODS, true),
  };
  return r.errors.length === before ? (consent as EndUserTermsConsent) : undefined;
}

/** Members every customer type accepts (create and update). */
export function readContactFields(r: FieldReader, body: JsonObject): CustomerProfile {
  return defined({
    email: r.string(body, 'email', 'email', { format: 'email' }),
    phoneNumber: r.string(body, 'phoneNumber', 'phoneNumber', { pattern: E164, format: 'e.164' }),
    umaAddress: r.string(body, 'umaAddress', 'umaAddress', { maxLength: 255, pattern: UMA_ADDRESS }),
    address: readAddress(r, body, 'address'),
    endUserTermsConsent: readTermsConsent(r, body),
  });
}

export function readIndividualFields(r: FieldReader, body: JsonObject): CustomerProfile {
  return defined({
    fullName: r.string(body, 'fullName', 'fullName', TEXT),
    birthDate: r.string(body, 'birthDate', 'birthDate', { format: 'date' }),
    nationality: r.string(body, 'nationality', 'nationality', COUNTRY),
    idType: r.enumValue(body, 'idType', 'idType', ID_TYPES),
    identifier: r.string(body, 'identifier', 'identifier', { minLength: 1, maxLength: 64 }),
    countryOfIssuance: r.string(body, 'countryOfIssuance', 'countryOfIssuance', COUNTRY),
    sourceOfFundsCategories: r.enumArray(body, 'sourceOfFundsCategories', 'sourceOfFundsCategories', INDIVIDUAL_SOURCE_OF_FUNDS),
    sourceOfFundsOtherDescription: r.string(body, 'sourceOfFundsOtherDescription', 'sourceOfFundsOtherDescription', DESCRIPTION),
    sourceOfWealthCategories: r.enumArray(body, 'sourceOfWealthCategories', 'sourceOfWealthCategories', SOURCE_OF_WEALTH),
    sourceOfWealthOtherDescription: r.string(body, 'sourceOfWealthOtherDescription', 'sourceOfWealthOtherDescription', DESCRIPTION),
    purposeOfAccount: r.enumValue(body, 'purposeOfAccount', 'purposeOfAccount', PURPOSES_OF_ACCOUNT),
    purposeOfAccountOtherDescription: r.string(body, 'purposeOfAccountOtherDescription', 'purposeOfAccountOtherDescription', DESCRIPTION),
    expectedMonthlyTransactionCount: r.enumValue(body, 'expectedMonthlyTransactionCount', 'expectedMonthlyTransactionCount', MONTHLY_TRANSACTION_COUNTS),
    expectedMonthlyTransactionVolume: r.enumValue(body, 'expectedMonthlyTransactionVolume', 'expectedMonthlyTransactionVolume', MONTHLY_TRANSACTION_VOLUMES),
    annualIncomeRange: r.enumValue(body, 'annualIncomeRange', 'annualIncomeRange', ANNUAL_INCOME_RANGES),
    netWorthRange: r.enumValue(body, 'netWorthRange', 'netWorthRange', NET_WORTH_RANGES),
    pepStatus: r.enumValue(body, 'pepStatus', 'pepStatus', PEP_STATUSES),
  });
}

const BUSINESS_REQUIRED_ON_CREATE = ['legalName', 'country', 'taxId', 'incorporatedOn'] as const;

/** `businessInfo`; on create the object and its four identifying members are required. */
export function readBusinessInfo(r: FieldReader, body: JsonObject, creating: boolean): BusinessInfo | undefined {
  const obj = r.object(body, 'businessInfo', 'businessInfo', creating);
  if (!obj) return undefined;
  const req = (key: (typeof BUSINESS_REQUIRED_ON_CREATE)[number]) => creating && BUSINESS_REQUIRED_ON_CREATE.includes(key);
  const f = (key: string) => `businessInfo.${key}`;
  const countries = (key: string) => r.array(obj, key, f(key), (v, itemField) => r.stringValue(v, itemField, COUNTRY));
  return defined({
    legalName: r.string(obj, 'legalName', f('legalName'), { ...TEXT, required: req('legalName') }),
    doingBusinessAs: r.string(obj, 'doingBusinessAs', f('doingBusinessAs'), TEXT),
    country: r.string(obj, 'country', f('country'), { ...COUNTRY, required: req('country') }),
    registrationNumber: r.string(obj, 'registrationNumber', f('registrationNumber'), { minLength: 1, maxLength: 64 }),
    incorporatedOn: r.string(obj, 'incorporatedOn', f('incorporatedOn'), { format: 'date', required: req('incorporatedOn') }),
    entityType: r.enumValue(obj, 'entityType', f('entityType'), ENTITY_TYPES),
    taxId: r.string(obj, 'taxId', f('taxId'), { minLength: 1, maxLength: 64, required: req('taxId') }),
    countriesOfOperation: countries('countriesOfOperation'),
    businessType: r.enumValue(obj, 'businessType', f('businessType'), BUSINESS_TYPES),
    purposeOfAccount: r.enumValue(obj, 'purposeOfAccount', f('purposeOfAccount'), PURPOSES_OF_ACCOUNT),
    sourceOfFunds: r.string(obj, 'sourceOfFunds', f('sourceOfFunds'), DESCRIPTION),
    expectedMonthlyTransactionCount: r.enumValue(obj, 'expectedMonthlyTransactionCount', f('expectedMonthlyTransactionCount'), MONTHLY_TRANSACTION_COUNTS),
    expectedMonthlyTransactionVolume: r.enumValue(obj, 'expectedMonthlyTransactionVolume', f('expectedMonthlyTransactionVolume'), MONTHLY_TRANSACTION_VOLUMES),
    expectedRecipientJurisdictions: countries('expectedRecipientJurisdictions'),
    naicsCode: r.string(obj, 'naicsCode', f('naicsCode'), { pattern: NAICS }),
    sourceOfFundsCategories: r.enumArray(obj, 'sourceOfFundsCategories', f('sourceOfFundsCategories'), BUSINESS_SOURCE_OF_FUNDS),
    sourceOfFundsOtherDescription: r.string(obj, 'sourceOfFundsOtherDescription', f('sourceOfFundsOtherDescription'), DESCRIPTION),
    purposeOfAccountOtherDescription: r.string(obj, 'purposeOfAccountOtherDescription', f('purposeOfAccountOtherDescription'), DESCRIPTION),
    expectedCounterpartyCountries: countries('expectedCounterpartyCountries'),
    primaryContactFirstName: r.string(obj, 'primaryContactFirstName', f('primaryContactFirstName'), { minLength: 1, maxLength: 250 }),
    primaryContactLastName: r.string(obj, 'primaryContactLastName', f('primaryContactLastName'), { minLength: 1, maxLength: 250 }),
  });
}
