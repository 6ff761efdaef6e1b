import { Type } from '@sinclair/typebox';
import { pageQuery, Page, Processing, SignedRetryChallenge } from './common-schemas';
import { BeneficialOwner } from './kyc-contract';
import { operation } from './operation';
import { ClosedObject, Country, CurrencyCode, DateTime, Id, named, StringEnum } from './schema-kit';
import {
  ANNUAL_INCOME_RANGES as INCOME_RANGES, BUSINESS_SOURCE_OF_FUNDS as BUSINESS_SOURCES_OF_FUNDS, BUSINESS_TYPES, CUSTOMER_TYPES, ENTITY_TYPES, ID_TYPES,
  INDIVIDUAL_SOURCE_OF_FUNDS as INDIVIDUAL_SOURCES_OF_FUNDS, MONTHLY_TRANSACTION_COUNTS as MONTHLY_COUNTS, MONTHLY_TRANSACTION_VOLUMES as MONTHLY_VOLUMES,
  NET_WORTH_RANGES, PEP_STATUSES, PURPOSES_OF_ACCOUNT, SOURCE_OF_WEALTH as SOURCES_OF_WEALTH, TERMS_ACCEPTANCE_METHODS, VERIFICATION_STATUSES,
} from '../../lib/contract/customer-vocabulary';

/** Free text as the accounts service bounds it. */
const Text = (maxLength = 255) => Type.String({ minLength: 1, maxLength });
const UMA_ADDRESS = '^\\$[a-zA-Z0-9._+-]{1,64}@[a-zA-Z0-9-]+(\\.[a-zA-Z0-9-]+)+$';
const E164 = '^\\+[1-9]\\d{1,14}$';

export const Address = named('Address', ClosedObject({
  line1: Text(), line2: Type.Optional(Text()), city: Type.Optional(Text()), state: Type.Optional(Text()),
  postalCode: Text(20), country: Country(),
}));

const TermsConsent = named('EndUserTermsConsent', ClosedObject({
  acceptedAt: DateTime(),
  ipAddress: Type.String({ maxLength: 45, format: 'ip', description: 'IPv4 or IPv6 address the terms were accepted from' }),
  termsVersion: Text(64),
  acceptanceMethod: StringEnum(TERMS_ACCEPTANCE_METHODS),
}));

/** Members of the individual due-diligence profile (requests and records alike). */
const individualProfile = {
  fullName: Type.Optional(Text()),
  birthDate: Type.Optional(Type.String({ format: 'date' })),
  nationality: Type.Optional(Country()),
  idType: Type.Optional(StringEnum(ID_TYPES)),
  countryOfIssuance: Type.Optional(Country()),
  sourceOfFundsCategories: Type.Optional(Type.Array(StringEnum(INDIVIDUAL_SOURCES_OF_FUNDS))),
  sourceOfFundsOtherDescription: Type.Optional(Text(500)),
  sourceOfWealthCategories: Type.Optional(Type.Array(StringEnum(SOURCES_OF_WEALTH))),
  sourceOfWealthOtherDescription: Type.Optional(Text(500)),
  purposeOfAccount: Type.Optional(StringEnum(PURPOSES_OF_ACCOUNT)),
  purposeOfAccountOtherDescription: Type.Optional(Text(500)),
  expectedMonthlyTransactionCount: Type.Optional(StringEnum(MONTHLY_COUNTS)),
  expectedMonthlyTransactionVolume: Type.Optional(StringEnum(MONTHLY_VOLUMES)),
  annualIncomeRange: Type.Optional(StringEnum(INCOME_RANGES)),
  netWorthRange: Type.Optional(StringEnum(NET_WORTH_RANGES)),
  pepStatus: Type.Optional(StringEnum(PEP_STATUSES)),
};

const businessInfoMembers = {
  legalName: Text(),
  doingBusinessAs: Type.Optional(Text()),
  country: Country(),
  registrationNumber: Type.Optional(Text(64)),
  incorporatedOn: Type.String({ format: 'date' }),
  entityType: Type.Optional(StringEnum(ENTITY_TYPES)),
  taxId: Text(64),
  countriesOfOperation: Type.Optional(Type.Array(Country())),
  businessType: Type.Optional(StringEnum(BUSINESS_TYPES)),
  purposeOfAccount: Type.Optional(StringEnum(PURPOSES_OF_ACCOUNT)),
  sourceOfFunds: Type.Optional(Text(500)),
  expectedMonthlyTransactionCount: Type.Optional(StringEnum(MONTHLY_COUNTS)),
  expectedMonthlyTransactionVolume: Type.Optional(StringEnum(MONTHLY_VOLUMES)),
  expectedRecipientJurisdictions: Type.Optional(Type.Array(Country())),
  naicsCode: Type.Optional(Type.String({ pattern: '^\\d{2,6}$' })),
  sourceOfFundsCategories: Type.Optional(Type.Array(StringEnum(BUSINESS_SOURCES_OF_FUNDS))),
  sourceOfFundsOtherDescription: Type.Optional(Text(500)),
  purposeOfAccountOtherDescription: Type.Optional(Text(500)),
  expectedCounterpartyCountries: Type.Optional(Type.Array(Country())),
  primaryContactFirstName: Type.Optional(Text(250)),
  primaryContactLastName: Type.Optional(Text(250)),
};

/** On create the four identifying members are required; on update every member is optional. */
const BusinessInfoCreate = named('BusinessInfoCreate', Type.Object(businessInfoMembers));
const BusinessInfoUpdate = named('BusinessInfoUpdate', Type.Partial(Type.Object(businessInfoMembers)));
const BusinessInfo = named('BusinessInfo', ClosedObject({ ...Type.Partial(Type.Object(businessInfoMembers)).properties, legalName: Type.String() }));

/** Members of create and update requests. Unknown members are ignored, as the service does. */
const contactMembers = {
  currencies: Type.Optional(Type.Array(Type.String(), { description: 'Drawn from the platform\'s supported currencies' })),
  email: Type.Optional(Type.String({ format: 'email' })),
  phoneNumber: Type.Optional(Type.String({ pattern: E164, format: 'e.164' })),
  umaAddress: Type.Optional(Type.String({ maxLength: 255, pattern: UMA_ADDRESS })),
  address: Type.Optional(Type.Object(Address.properties)),
  endUserTermsConsent: Type.Optional(Type.Object(TermsConsent.properties)),
};

/** Members that apply to one customer type only (the service ignores them on the other). */
const byCustomerType = (businessInfo: typeof BusinessInfoCreate | typeof BusinessInfoUpdate) => ({
  allOf: [
    { if: { properties: { customerType: { const: 'INDIVIDUAL' } }, required: ['customerType'] }, then: Type.Object({ ...individualProfile, identifier: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The number of the identification document (never returned)' })) }) },
    { if: { properties: { customerType: { const: 'BUSINESS' } }, required: ['customerType'] }, then: Type.Object({ businessInfo: Type.Optional(businessInfo) }) },
  ],
});

const CustomerCreateRequest = named('CustomerCreateRequest', Type.Object({
  customerType: StringEnum(CUSTOMER_TYPES),
  platformCustomerId: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'The platform\'s own id for the customer' })),
  region: Type.Optional(Country()),
  ...contactMembers,
}, { description: 'The profile members of the customer\'s type apply: INDIVIDUAL ones, or `businessInfo` (required for BUSINESS)', ...byCustomerType(BusinessInfoCreate) }));

const CustomerUpdateRequest = named('CustomerUpdateRequest', Type.Object({
  customerType: StringEnum(CUSTOMER_TYPES, { description: 'Must be the customer\'s own type' }),
  ...contactMembers,
}, { description: 'Email and phone number change in separate requests', ...byCustomerType(BusinessInfoUpdate) }));

const CONTACT_STATUSES = ['PENDING', 'VERIFIED'] as const;
const ContactVerification = named('ContactVerification', ClosedObject({
  email: Type.Optional(StringEnum(CONTACT_STATUSES)),
  phone: Type.Optional(StringEnum(CONTACT_STATUSES)),
}, { description: 'Present only where the customer\'s region requires contact verification; every channel present must be VERIFIED before KYC' }));

const customerMembers = {
  id: Id('Customer'),
  platformCustomerId: Type.String(),
  endUserTermsConsent: Type.Optional(TermsConsent),
  region: Type.Optional(Type.String()),
  currencies: Type.Optional(Type.Array(Type.String())),
  email: Type.Optional(Type.String()),
  phoneNumber: Type.Optional(Type.String()),
  umaAddress: Type.String(),
  createdAt: DateTime(),
  updatedAt: DateTime(),
  isDeleted: Type.Optional(Type.Boolean()),
  address: Type.Optional(Address),
  contactVerification: Type.Optional(ContactVerification),
};

const IndividualCustomer = named('IndividualCustomer', ClosedObject({
  ...customerMembers,
  customerType: Type.Literal('INDIVIDUAL'),
  kycStatus: StringEnum(VERIFICATION_STATUSES),
  ...individualProfile,
}));

const BusinessCustomer = named('BusinessCustomer', ClosedObject({
  ...customerMembers,
  customerType: Type.Literal('BUSINESS'),
  kybStatus: StringEnum(VERIFICATION_STATUSES),
  businessInfo: Type.Optional(BusinessInfo),
  beneficialOwners: Type.Optional(Type.Array(BeneficialOwner, { description: 'The business\'s beneficial owners, directors and officers' })),
}));

export const Customer = named('Customer', Type.Union([IndividualCustomer, BusinessCustomer]));

const EndUserTerms = named('EndUserTerms', ClosedObject({ version: Type.String(), url: Type.String({ format: 'uri' }) }));

const customerId = { customerId: Id('Customer') };
const TAGS = ['Customers'];

const CONTACT_TAGS = ['Contact Verification'];
const ContactCodeRequest = named('ContactVerificationConfirmRequest', Type.Object({ code: Type.String({ description: 'The 6-digit code (sandbox: 123456)' }) }));
const contactOperations = (['email', 'phone'] as const).flatMap((channel) => {
  const Channel = channel === 'email' ? 'Email' : 'Phone';
  return [
    operation({
      operationId: `sendCustomer${Channel}Verification`, method: 'post', path: `/customers/{customerId}/verify-${channel}`, tags: CONTACT_TAGS,
      summary: `Send (or resend) a one-time code to the customer's ${channel}; 409 where the region does not require it`,
      pathParams: customerId, success: { 204: null }, errors: [404, 409],
    }),
    operation({
      operationId: `confirmCustomer${Channel}Verification`, method: 'post', path: `/customers/{customerId}/verify-${channel}/confirm`, tags: CONTACT_TAGS,
      summary: `Confirm the code sent to the customer's ${channel}`, pathParams: customerId,
      body: ContactCodeRequest,
      success: { 200: Customer }, errors: [404, 409],
    }),
  ];
});

export const ImportJob = named('BulkCustomerImportJob', ClosedObject({
  id: Id('BulkUploadJob'),
  status: StringEnum(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const),
  progress: ClosedObject({ total: Type.Integer(), processed: Type.Integer(), successful: Type.Integer(), failed: Type.Integer() }),
  errors: Type.Optional(Type.Array(ClosedObject({
    correlationId: Type.String({ description: 'The row\'s platformCustomerId, "row N", or "file"' }),
    code: Type.String(), message: Type.String(), details: Type.Optional(Type.Object({}, { additionalProperties: true })),
  }))),
  completedAt: Type.Optional(DateTime()),
}));

const bulkOperations = [
  operation({
    operationId: 'uploadCustomersCsv', method: 'post', path: '/customers/bulk/csv', tags: TAGS,
    summary: 'Create customers from a CSV file (multipart/form-data, field `file`): answers a job at once',
    body: Type.Object({ file: Type.String({ contentEncoding: 'binary', description: 'CSV with the reference\'s columns, at most 10 MB and 10,000 rows' }) }),
    bodyMediaType: 'multipart/form-data',
    success: { 202: named('BulkCustomerImportJobAccepted', ClosedObject({ jobId: Id('BulkUploadJob'), status: StringEnum(['PENDING', 'PROCESSING'] as const) })) },
  }),
  operation({
    operationId: 'getBulkCustomerImportJob', method: 'get', path: '/customers/bulk/jobs/{jobId}', tags: TAGS,
    summary: 'A CSV import job: status, progress and the errors of failed rows', pathParams: { jobId: Id('BulkUploadJob') },
    success: { 200: ImportJob }, errors: [404],
  }),
];

export const customerOperations = [
  ...contactOperations,
  ...bulkOperations,
  operation({
    operationId: 'createCustomer', method: 'post', path: '/customers', tags: TAGS, summary: 'Create a customer',
    body: CustomerCreateRequest, validatedWithUseCase: true, success: { 201: Customer }, errors: [409],
  }),
  operation({
    operationId: 'listCustomers', method: 'get', path: '/customers', tags: TAGS, summary: 'List customers, newest first, with filters',
    query: {
      platformCustomerId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })), customerType: Type.Optional(StringEnum(CUSTOMER_TYPES)),
      createdAfter: Type.Optional(DateTime()), createdBefore: Type.Optional(DateTime()),
      updatedAfter: Type.Optional(DateTime()), updatedBefore: Type.Optional(DateTime()),
      region: Type.Optional(Country()), currency: Type.Optional(CurrencyCode), umaAddress: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
      isIncludingDeleted: Type.Optional(Type.String({ description: 'true or false' })),
      ...pageQuery,
    },
    success: { 200: Page('CustomerList', Customer) },
  }),
  operation({
    operationId: 'getEndUserTerms', method: 'get', path: '/customers/end-user-terms', tags: TAGS, summary: 'The current end-user terms',
    success: { 200: EndUserTerms },
  }),
  operation({
    operationId: 'getCustomer', method: 'get', path: '/customers/{customerId}', tags: TAGS, summary: 'Read a customer',
    pathParams: customerId, success: { 200: Customer }, errors: [404],
  }),
  operation({
    operationId: 'updateCustomer', method: 'patch', path: '/customers/{customerId}', tags: TAGS,
    summary: 'Update a customer; changing an email tied to wallet credentials is a signed retry',
    pathParams: customerId, headers: ['walletSignature', 'requestId'], body: CustomerUpdateRequest, validatedWithUseCase: true,
    success: { 200: Type.Union([Customer, Processing]), 202: SignedRetryChallenge }, errors: [404, 409, 410, 424],
  }),
  operation({
    operationId: 'deleteCustomer', method: 'delete', path: '/customers/{customerId}', tags: TAGS,
    summary: 'Delete a customer (kept readable with isDeleted); refused with 409 while it holds funds, 410 when deleted already',
    pathParams: customerId, success: { 200: Customer }, errors: [404, 409, 410],
  }),
];
