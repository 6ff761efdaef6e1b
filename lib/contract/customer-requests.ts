import { Type } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import type { FieldError } from '../errors';
import { newContractAjv } from './contract-ajv';
import { fieldErrors, inMemberOrder } from './contract-errors';
import {
  ANNUAL_INCOME_RANGES as INCOME_RANGES,
  BUSINESS_SOURCE_OF_FUNDS as BUSINESS_SOURCES_OF_FUNDS,
  BUSINESS_TYPES,
  CUSTOMER_TYPES,
  ENTITY_TYPES,
  ID_TYPES,
  INDIVIDUAL_SOURCE_OF_FUNDS as INDIVIDUAL_SOURCES_OF_FUNDS,
  MONTHLY_TRANSACTION_COUNTS as MONTHLY_COUNTS,
  MONTHLY_TRANSACTION_VOLUMES as MONTHLY_VOLUMES,
  NET_WORTH_RANGES,
  PEP_STATUSES,
  PURPOSES_OF_ACCOUNT,
  SOURCE_OF_WEALTH as SOURCES_OF_WEALTH,
  TERMS_ACCEPTANCE_METHODS,
} from './customer-vocabulary';
import { ClosedObject, Country, DateTime, named, StringEnum } from './schema-kit';

/*
 * The REST shape of customer create and update requests: checked by the gateway at the edge and,
 * with the same schema, by the accounts service on each row of a CSV import (which has no gateway
 * in front of it). The service's rules (docs/rest-contract.md) come after, on typed messages.
 */

/** Free text as the accounts service bounds it. */
const Text = (maxLength = 255) => Type.String({ minLength: 1, maxLength });
// A domain with a dot, or localhost:PORT (a sandbox VASP on this machine; production serves no localhost domain).
const UMA_ADDRESS = '^\\$[a-zA-Z0-9._+-]{1,64}@([a-zA-Z0-9-]+(\\.[a-zA-Z0-9-]+)+|localhost:[0-9]{1,5})$';
const E164 = '^\\+[1-9]\\d{1,14}$';

export const Address = named(
  'Address',
  ClosedObject({
    line1: Text(),
    line2: Type.Optional(Text()),
    city: Type.Optional(Text()),
    state: Type.Optional(Text()),
    postalCode: Text(20),
    country: Country(),
  }),
);

export const TermsConsent = named(
  'EndUserTermsConsent',
  ClosedObject({
    acceptedAt: DateTime(),
    ipAddress: Type.String({
      maxLength: 45,
      format: 'ip',
      description: 'IPv4 or IPv6 address the terms were accepted from',
    }),
    termsVersion: Text(64),
    acceptanceMethod: StringEnum(TERMS_ACCEPTANCE_METHODS),
  }),
);

/** Members of the individual due-diligence profile (requests and records alike). */
export const individualProfile = {
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

export const businessInfoMembers = {
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

/** Members of create and update requests. Unknown members are ignored, as the service does. */
const contactMembers = {
  currencies: Type.Optional(
    Type.Array(Type.String(), { description: "Drawn from the platform's supported currencies" }),
  ),
  email: Type.Optional(Type.String({ format: 'email' })),
  phoneNumber: Type.Optional(Type.String({ pattern: E164, format: 'e.164' })),
  umaAddress: Type.Optional(Type.String({ maxLength: 255, pattern: UMA_ADDRESS })),
  address: Type.Optional(Type.Object(Address.properties)),
  endUserTermsConsent: Type.Optional(Type.Object(TermsConsent.properties)),
};

/** Members that apply to one customer type only (the service ignores them on the other). */
const byCustomerType = (businessInfo: typeof BusinessInfoCreate | typeof BusinessInfoUpdate) => ({
  allOf: [
    {
      if: { properties: { customerType: { const: 'INDIVIDUAL' } }, required: ['customerType'] },
      then: Type.Object({
        ...individualProfile,
        identifier: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 64,
            description: 'The number of the identification document (never returned)',
          }),
        ),
      }),
    },
    {
      if: { properties: { customerType: { const: 'BUSINESS' } }, required: ['customerType'] },
      then: Type.Object({ businessInfo: Type.Optional(businessInfo) }),
    },
  ],
});

export const CustomerCreateRequest = named(
  'CustomerCreateRequest',
  Type.Object({
    customerType: StringEnum(CUSTOMER_TYPES),
    platformCustomerId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: "The platform's own id for the customer" }),
    ),
    region: Type.Optional(Country()),
    ...contactMembers,
  }, {
    description:
      "The profile members of the customer's type apply: INDIVIDUAL ones, or `businessInfo` (required for BUSINESS)",
    ...byCustomerType(BusinessInfoCreate),
  }),
);

export const CustomerUpdateRequest = named(
  'CustomerUpdateRequest',
  Type.Object({
    customerType: StringEnum(CUSTOMER_TYPES, { description: "Must be the customer's own type" }),
    ...contactMembers,
  }, { description: 'Email and phone number change in separate requests', ...byCustomerType(BusinessInfoUpdate) }),
);

let createValidator: ValidateFunction | undefined;

/**
 * The CustomerCreateRequest members `body` breaks, as the gateway would list them (same schema,
 * same formats, same words and order); none when it is valid. Compiled once, on first use.
 */
export function customerCreateShapeErrors(body: Record<string, unknown>): FieldError[] {
  createValidator ??= newContractAjv().compile(CustomerCreateRequest);
  if (createValidator(body)) return [];
  return inMemberOrder(
    fieldErrors([...(createValidator.errors ?? [])]),
    CustomerCreateRequest as unknown as Record<string, unknown>,
  );
}
