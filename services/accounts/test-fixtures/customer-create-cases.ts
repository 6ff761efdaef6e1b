import type { FieldError } from '../../../lib/errors';
import { CustomerFields } from '../../../gen/accounts/v1/customer_requests';
import { customerCreateShapeErrors } from '../../../lib/contract/customer-requests';
import { validateAlongside } from '../../../lib/field-error-list';
import { validateCustomerCreate } from '../domain/customer-validation';
import { fieldErrorsOf } from './field-errors';
import { BUSINESS_CUSTOMER, customerFieldsOf } from './request-bodies';

/**
 * Every validation rule of customer create as (case, body patch, the one FieldError expected),
 * shared by the domain tests and the HTTP tests through the gateway. The platform offers SUPPORTED.
 */
export const SUPPORTED = ['USD', 'USDC', 'EUR'];
export const E164 = { pattern: '^\\+[1-9]\\d{1,14}$', format: 'e.164' };
export const ISO = { format: 'iso3166-1-alpha-2' };
export const COUNTRY_MSG = 'must be an ISO 3166-1 alpha-2 country code';
export const DATE_MSG = 'must be a calendar date YYYY-MM-DD';

export const INDIVIDUAL_CREATE_CASES: Array<[string, Record<string, unknown>, FieldError]> = [
  ['customerType missing', { customerType: undefined }, {
    field: 'customerType',
    message: 'is required',
    constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
  }],
  ['customerType unknown', { customerType: 'PERSON' }, {
    field: 'customerType',
    message: 'must be one of INDIVIDUAL, BUSINESS',
    constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
  }],
  ['platformCustomerId empty', { platformCustomerId: '' }, {
    field: 'platformCustomerId',
    message: 'must be between 1 and 128 characters',
    constraint: { minLength: 1, maxLength: 128 },
  }],
  ['platformCustomerId too long', { platformCustomerId: 'x'.repeat(129) }, {
    field: 'platformCustomerId',
    message: 'must be between 1 and 128 characters',
    constraint: { minLength: 1, maxLength: 128 },
  }],
  ['platformCustomerId a number', { platformCustomerId: 42 }, {
    field: 'platformCustomerId',
    message: 'must be a string',
  }],
  ['region three letters', { region: 'USA' }, { field: 'region', message: COUNTRY_MSG, constraint: ISO }],
  ['region unassigned', { region: 'XX' }, { field: 'region', message: COUNTRY_MSG, constraint: ISO }],
  ['currencies not an array', { currencies: 'USD' }, { field: 'currencies', message: 'must be an array' }],
  ['currencies empty', { currencies: [] }, {
    field: 'currencies',
    message: 'must list at least one currency',
    constraint: { enum: SUPPORTED },
  }],
  ['currency not offered', { currencies: ['USD', 'JPY'] }, {
    field: 'currencies[1]',
    message: 'must be one of USD, USDC, EUR',
    constraint: { enum: SUPPORTED },
  }],
  ['email malformed', { email: 'jane.smith' }, {
    field: 'email',
    message: 'must be a valid email address',
    constraint: { format: 'email' },
  }],
  ['email a number', { email: 5 }, { field: 'email', message: 'must be a string' }],
  ['email null', { email: null }, { field: 'email', message: 'must be a string' }],
  ['phone without +', { phoneNumber: '4155551234' }, {
    field: 'phoneNumber',
    message: 'must match ^\\+[1-9]\\d{1,14}$',
    constraint: E164,
  }],
  ['phone with leading 0', { phoneNumber: '+0415555' }, {
    field: 'phoneNumber',
    message: 'must match ^\\+[1-9]\\d{1,14}$',
    constraint: E164,
  }],
  ['phone too long', { phoneNumber: '+1234567890123456' }, {
    field: 'phoneNumber',
    message: 'must match ^\\+[1-9]\\d{1,14}$',
    constraint: E164,
  }],
  ['umaAddress without $', { umaAddress: 'jane@example.com' }, {
    field: 'umaAddress',
    message: 'must match ^\\$[a-zA-Z0-9._+-]{1,64}@([a-zA-Z0-9-]+(\\.[a-zA-Z0-9-]+)+|localhost:[0-9]{1,5})$',
    constraint: { pattern: '^\\$[a-zA-Z0-9._+-]{1,64}@([a-zA-Z0-9-]+(\\.[a-zA-Z0-9-]+)+|localhost:[0-9]{1,5})$' },
  }],
  ['fullName empty', { fullName: '' }, {
    field: 'fullName',
    message: 'must be between 1 and 255 characters',
    constraint: { minLength: 1, maxLength: 255 },
  }],
  ['birthDate in another format', { birthDate: '15/01/1990' }, {
    field: 'birthDate',
    message: DATE_MSG,
    constraint: { format: 'date' },
  }],
  ['birthDate not a calendar day', { birthDate: '1990-02-30' }, {
    field: 'birthDate',
    message: DATE_MSG,
    constraint: { format: 'date' },
  }],
  ['nationality lowercase', { nationality: 'us' }, { field: 'nationality', message: COUNTRY_MSG, constraint: ISO }],
  ['address not an object', { address: '1 Main St' }, { field: 'address', message: 'must be an object' }],
  ['address without line1', { address: { postalCode: '98101', country: 'US' } }, {
    field: 'address.line1',
    message: 'is required',
  }],
  ['address country a name', { address: { line1: '1 Main St', postalCode: '98101', country: 'Germany' } }, {
    field: 'address.country',
    message: COUNTRY_MSG,
    constraint: ISO,
  }],
  ['idType unknown', { idType: 'PASSPORT' }, {
    field: 'idType',
    message: 'must be one of SSN, ITIN, EIN, NON_US_TAX_ID',
    constraint: { enum: ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'] },
  }],
  ['countryOfIssuance unknown', { countryOfIssuance: 'ZZ' }, {
    field: 'countryOfIssuance',
    message: COUNTRY_MSG,
    constraint: ISO,
  }],
  ['source of funds unknown item', { sourceOfFundsCategories: ['SALARY', 'LOTTERY'] }, {
    field: 'sourceOfFundsCategories[1]',
    message: expect.stringMatching(/^must be one of SALARY,/) as unknown as string,
    constraint: { enum: expect.arrayContaining(['SALARY', 'OTHER']) as unknown as string[] },
  }],
  ['pepStatus unknown', { pepStatus: 'YES' }, {
    field: 'pepStatus',
    message: 'must be one of NONE, DOMESTIC, FOREIGN, HIO, FAMILY_OR_ASSOCIATE',
    constraint: { enum: ['NONE', 'DOMESTIC', 'FOREIGN', 'HIO', 'FAMILY_OR_ASSOCIATE'] },
  }],
  ['terms accepted at no date-time', {
    endUserTermsConsent: {
      acceptedAt: 'yesterday',
      ipAddress: '203.0.113.7',
      termsVersion: 'v1',
      acceptanceMethod: 'CHECKBOX',
    },
  }, {
    field: 'endUserTermsConsent.acceptedAt',
    message: 'must be an ISO 8601 date-time with a time zone',
    constraint: { format: 'date-time' },
  }],
  ['terms ip not an address', {
    endUserTermsConsent: {
      acceptedAt: '2025-10-03T12:00:00Z',
      ipAddress: '999.1.1.1',
      termsVersion: 'v1',
      acceptanceMethod: 'CHECKBOX',
    },
  }, {
    field: 'endUserTermsConsent.ipAddress',
    message: 'must be an IPv4 or IPv6 address',
    constraint: { format: 'ip' },
  }],
  ['terms without method', {
    endUserTermsConsent: { acceptedAt: '2025-10-03T12:00:00Z', ipAddress: '::1', termsVersion: 'v1' },
  }, {
    field: 'endUserTermsConsent.acceptanceMethod',
    message: 'is required',
    constraint: { enum: ['CHECKBOX', 'CLICK_TO_ACCEPT'] },
  }],
];

export const business = (info: Record<string, unknown>) => ({
  ...BUSINESS_CUSTOMER,
  businessInfo: { ...BUSINESS_CUSTOMER.businessInfo, ...info },
});

export const BUSINESS_CREATE_CASES: Array<[string, unknown, FieldError]> = [
  ['businessInfo missing', { ...BUSINESS_CUSTOMER, businessInfo: undefined }, {
    field: 'businessInfo',
    message: 'is required',
  }],
  ['legalName missing', business({ legalName: undefined }), {
    field: 'businessInfo.legalName',
    message: 'is required',
  }],
  ['taxId missing', business({ taxId: undefined }), { field: 'businessInfo.taxId', message: 'is required' }],
  ['country missing', business({ country: undefined }), { field: 'businessInfo.country', message: 'is required' }],
  ['incorporatedOn not a date', business({ incorporatedOn: '2018-13-01' }), {
    field: 'businessInfo.incorporatedOn',
    message: DATE_MSG,
    constraint: { format: 'date' },
  }],
  ['entityType unknown', business({ entityType: 'GMBH' }), {
    field: 'businessInfo.entityType',
    message: expect.stringMatching(/^must be one of SOLE_PROPRIETORSHIP/) as unknown as string,
    constraint: { enum: expect.arrayContaining(['LLC']) as unknown as string[] },
  }],
  ['naicsCode one digit', business({ naicsCode: '5' }), {
    field: 'businessInfo.naicsCode',
    message: 'must match ^\\d{2,6}$',
    constraint: { pattern: '^\\d{2,6}$' },
  }],
  ['country of operation unknown', business({ countriesOfOperation: ['US', 'ZZ'] }), {
    field: 'businessInfo.countriesOfOperation[1]',
    message: COUNTRY_MSG,
    constraint: ISO,
  }],
  ['contact first name too long', business({ primaryContactFirstName: 'a'.repeat(251) }), {
    field: 'businessInfo.primaryContactFirstName',
    message: 'must be between 1 and 250 characters',
    constraint: { minLength: 1, maxLength: 250 },
  }],
  ['description empty', business({ sourceOfFundsOtherDescription: '' }), {
    field: 'businessInfo.sourceOfFundsOtherDescription',
    message: 'must be between 1 and 500 characters',
    constraint: { minLength: 1, maxLength: 500 },
  }],
  ['address postal code missing', { ...BUSINESS_CUSTOMER, address: { line1: '1 Main', country: 'US' } }, {
    field: 'address.postalCode',
    message: 'is required',
  }],
];

/** A REST create body as its CustomerFields message (lists wrapped as on the wire). */
export const createFieldsOf = (body: unknown) => CustomerFields.fromPartial(customerFieldsOf(body as object));

/**
 * What POST /customers and a CSV import row answer for `body`: the contract's shape errors
 * (lib/contract/customer-requests.ts) and the customer rules on the typed message, in one list
 * (none when the request is accepted).
 */
export function customerCreateErrors(body: unknown): FieldError[] {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  const shapeErrors = isObject ? customerCreateShapeErrors(body as Record<string, unknown>) : [];
  const check = () => validateAlongside(shapeErrors, () => validateCustomerCreate(createFieldsOf(body), SUPPORTED));
  try {
    check();
  } catch {
    return fieldErrorsOf(check);
  }
  return [];
}
