import { Type } from '@sinclair/typebox';
import { ID_TYPES, OWNER_ROLES as ROLES } from './customer-vocabulary';
import { ClosedObject, Country, DateTime, Id, named, StringEnum } from './schema-kit';

/*
 * The REST BeneficialOwner, as responses and a business customer's webhooks carry it, and the members its
 * requests share (the gateway's contract adds the operations). beneficial-owner-json.ts writes it by this schema.
 */

const Text = () => Type.String({ minLength: 1, maxLength: 255 });
const OwnerAddress = ClosedObject({
  line1: Text(),
  line2: Type.Optional(Text()),
  city: Type.Optional(Text()),
  state: Type.Optional(Text()),
  postalCode: Type.String({ minLength: 1, maxLength: 20 }),
  country: Country(),
});
export const personalMembers = {
  firstName: Text(),
  middleName: Type.Optional(Text()),
  lastName: Text(),
  birthDate: Type.String({ format: 'date' }),
  nationality: Country(),
  email: Type.Optional(Type.String({ format: 'email' })),
  phoneNumber: Type.Optional(Type.String({ pattern: '^\\+[1-9]\\d{1,14}$', format: 'e.164' })),
  address: Type.Object(OwnerAddress.properties),
  idType: StringEnum(ID_TYPES),
  countryOfIssuance: Type.Optional(Country()),
};
export const identifier = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Identification number (returned masked)',
});
const maskedIdentifier = Type.String({
  description: 'The identification number masked: only its last four characters show (none when shorter than 8)',
});
export const Roles = Type.Array(StringEnum(ROLES), { minItems: 1 });
export const Percentage = Type.Integer({ minimum: 0, maximum: 100 });

// The reference lists the masked identifier before the country of issuance.
const { countryOfIssuance, ...beforeIssuance } = personalMembers;
export const BeneficialOwner = named(
  'BeneficialOwner',
  ClosedObject({
    id: Id('BeneficialOwner'),
    customerId: Id('Customer'),
    roles: Type.Array(StringEnum(ROLES)),
    ownershipPercentage: Percentage,
    personalInfo: named(
      'BeneficialOwnerPersonalInfo',
      ClosedObject({ ...beforeIssuance, address: OwnerAddress, identifier: maskedIdentifier, countryOfIssuance }),
    ),
    kycStatus: StringEnum(['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'] as const, {
      description: "Follows its business's verification",
    }),
    createdAt: DateTime(),
    updatedAt: Type.Optional(DateTime()),
  }),
);
