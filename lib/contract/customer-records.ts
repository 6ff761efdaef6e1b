import { Type } from '@sinclair/typebox';
import { VERIFICATION_STATUSES } from './customer-vocabulary';
import { Address, businessInfoMembers, individualProfile, TermsConsent } from './customer-requests';
import { ClosedObject, DateTime, Id, named, StringEnum } from './schema-kit';

/*
 * The REST customer records, as responses and webhooks carry them (the gateway's contract adds a
 * business's `beneficialOwners`). customer-json.ts writes a Customer message by these schemas.
 */

export const BusinessInfo = named(
  'BusinessInfo',
  ClosedObject({ ...Type.Partial(Type.Object(businessInfoMembers)).properties, legalName: Type.String() }),
);

const CONTACT_STATUSES = ['PENDING', 'VERIFIED'] as const;
const ContactVerification = named(
  'ContactVerification',
  ClosedObject({
    email: Type.Optional(StringEnum(CONTACT_STATUSES)),
    phone: Type.Optional(StringEnum(CONTACT_STATUSES)),
  }, {
    description: "Present only where the customer's region requires contact verification; "
      + 'every channel present must be VERIFIED before KYC',
  }),
);

const customerMembers = <T extends 'INDIVIDUAL' | 'BUSINESS'>(customerType: T) => ({
  id: Id('Customer'),
  platformCustomerId: Type.String(),
  customerType: Type.Literal(customerType),
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
});

export const IndividualCustomer = named(
  'IndividualCustomer',
  ClosedObject({
    ...customerMembers('INDIVIDUAL'),
    kycStatus: StringEnum(VERIFICATION_STATUSES),
    ...individualProfile,
  }),
);

/** Without `beneficialOwners`, which the gateway's contract adds (they are records of their own). */
export const businessCustomerMembers = {
  ...customerMembers('BUSINESS'),
  kybStatus: StringEnum(VERIFICATION_STATUSES),
  businessInfo: Type.Optional(BusinessInfo),
};
