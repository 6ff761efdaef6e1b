import { Type, type TSchema } from '@sinclair/typebox';
import {
  BENEFICIARY_TYPES,
  EXTERNAL_ACCOUNT_TYPE_NAMES,
  EXTERNAL_ACCOUNT_TYPES,
  type AccountTypeSpec,
  type MemberSpec,
} from './external-account-types';
import { Address } from './customer-requests';
import { ClosedObject, Country, named, StringEnum } from './schema-kit';

/*
 * `accountInfo` of external accounts, derived from the one table of account types: one schema per
 * type (its members, formats and rails), joined in a `oneOf` discriminated by `accountType`.
 * Requests are open (unknown members are ignored); responses are closed.
 */

const E164 = '^\\+[1-9]\\d{1,14}$';
const Text = (maxLength = 255) => Type.String({ minLength: 1, maxLength });

/** `AED_ACCOUNT` → `Aed`, `BASE_WALLET` → `BaseWallet`: the reference's schema names. */
const pascal = (type: string) =>
  type.replace(/_ACCOUNT$/, '').split('_').map((w) => w[0] + w.slice(1).toLowerCase()).join('');

function memberSchema(spec: MemberSpec): TSchema {
  const { required: _required, check: _check, enum: values, ...keywords } = spec;
  return values ? StringEnum(values, keywords) : Type.String(keywords);
}

const contact = (address: TSchema): Record<string, TSchema> => ({
  email: Type.String({ format: 'email' }),
  phoneNumber: Type.String({ pattern: E164, format: 'e.164' }),
  countryOfResidence: Country(),
  address,
});

/** The members, all optional but `required` ones. */
const withRequired = (all: Record<string, TSchema>, required: readonly string[]) =>
  Object.fromEntries(Object.entries(all).map(([m, s]) => [m, required.includes(m) ? s : Type.Optional(s)]));

const individualMembers = (address: TSchema, requires: readonly string[] = []) =>
  withRequired({
    beneficiaryType: StringEnum(['INDIVIDUAL'] as const),
    fullName: Text(),
    birthDate: Type.String({ format: 'date' }),
    nationality: Country(),
    ...contact(address),
  }, ['beneficiaryType', 'fullName', ...requires]);

const businessMembers = (address: TSchema) =>
  withRequired({
    beneficiaryType: StringEnum(['BUSINESS'] as const),
    legalName: Text(),
    registrationNumber: Text(64),
    taxId: Text(64),
    ...contact(address),
  }, ['beneficiaryType', 'legalName']);

/** A union of object schemas discriminated by one member (`tag`, one of `values`), published with its mapping. */
interface DiscriminatedUnion {
  name: string;
  tag: string;
  values: readonly string[];
  branches: TSchema[];
  description?: string;
}

function discriminated({ name, tag, values, branches, description }: DiscriminatedUnion): TSchema {
  return named(
    name,
    Type.Unsafe({
      type: 'object',
      required: [tag],
      properties: { [tag]: StringEnum(values) },
      oneOf: branches,
      discriminator: { propertyName: tag },
      ...(description ? { description } : {}),
    }),
  );
}

const RequestAddress = Type.Object(Address.properties);
const BusinessBeneficiaryInput = named('BusinessBeneficiaryInput', Type.Object(businessMembers(RequestAddress)));

/** The beneficiary a request gives: the individual's required members depend on the account type. */
const beneficiaryInputs = new Map<string, TSchema>();
function beneficiaryInput(type: string, individualRequires: readonly string[]): TSchema {
  const key = individualRequires.join(',');
  let schema = beneficiaryInputs.get(key);
  if (!schema) {
    const individual = named(
      key ? `${pascal(type)}IndividualBeneficiaryInput` : 'IndividualBeneficiaryInput',
      Type.Object(individualMembers(RequestAddress, individualRequires)),
    );
    schema = discriminated({
      name: key ? `${pascal(type)}BeneficiaryInput` : 'BeneficiaryInput',
      tag: 'beneficiaryType',
      values: BENEFICIARY_TYPES,
      branches: [individual, BusinessBeneficiaryInput],
    });
    beneficiaryInputs.set(key, schema);
  }
  return schema;
}

const Beneficiary = discriminated({
  name: 'Beneficiary',
  tag: 'beneficiaryType',
  values: BENEFICIARY_TYPES,
  branches: [
    named('IndividualBeneficiary', ClosedObject(individualMembers(Address))),
    named('BusinessBeneficiary', ClosedObject(businessMembers(Address))),
  ],
  description: 'The holder of the account',
});

function members(spec: AccountTypeSpec, required: (member: string) => boolean): Record<string, TSchema> {
  return Object.fromEntries(
    Object.entries(spec.members).map(([m, s]) => [m, required(m) ? memberSchema(s) : Type.Optional(memberSchema(s))]),
  );
}

function createInfo(type: string, spec: AccountTypeSpec): TSchema {
  return named(
    `${pascal(type)}ExternalAccountCreateInfo`,
    Type.Object({
      accountType: StringEnum([type]),
      ...members(spec, (m) => spec.members[m].required === true),
      ...(spec.rails.length
        ? {
          paymentRails: Type.Optional(
            Type.Array(StringEnum(spec.rails), { minItems: 1, description: 'Every rail of the type when not given' }),
          ),
        }
        : {}),
      ...(spec.beneficiary
        ? { beneficiary: beneficiaryInput(type, spec.beneficiary.individualRequires) }
        : spec.kind === 'WALLET' && type !== 'LIGHTNING'
        ? { beneficiary: Type.Optional(beneficiaryInput(type, [])) }
        : {}),
    }, { title: type }),
  );
}

function info(type: string, spec: AccountTypeSpec): TSchema {
  return named(
    `${pascal(type)}ExternalAccountInfo`,
    ClosedObject({
      accountType: StringEnum([type]),
      ...members(spec, (m) => spec.members[m].required === true),
      ...(spec.rails.length ? { paymentRails: Type.Array(StringEnum(spec.rails)) } : {}),
      ...(spec.beneficiary
        ? { beneficiary: Beneficiary }
        : spec.kind === 'WALLET' && type !== 'LIGHTNING'
        ? { beneficiary: Type.Optional(Beneficiary) }
        : {}),
    }, { title: type }),
  );
}

const specs = EXTERNAL_ACCOUNT_TYPE_NAMES.map((type) =>
  [type, EXTERNAL_ACCOUNT_TYPES[type] as AccountTypeSpec] as const
);

export const ExternalAccountType = named(
  'ExternalAccountType',
  StringEnum(EXTERNAL_ACCOUNT_TYPE_NAMES, { description: 'Type of external account or wallet' }),
);

/** `accountInfo` of a create request. */
export const ExternalAccountCreateInfo = discriminated({
  name: 'ExternalAccountCreateInfoOneOf',
  tag: 'accountType',
  values: EXTERNAL_ACCOUNT_TYPE_NAMES,
  branches: specs.map(([type, spec]) => createInfo(type, spec)),
  description: 'Bank or wallet details; members depend on `accountType`',
});

/** `accountInfo` of an external account. */
export const ExternalAccountInfo = discriminated({
  name: 'ExternalAccountInfoOneOf',
  tag: 'accountType',
  values: EXTERNAL_ACCOUNT_TYPE_NAMES,
  branches: specs.map(([type, spec]) => info(type, spec)),
  description: 'Bank or wallet details; members depend on `accountType`',
});
