import type { BeneficialOwnerFields, PersonalInfoFields } from '../../../gen/accounts/v1/beneficial_owners';
import type { AddressFields } from '../../../gen/accounts/v1/external_account_info';
import { OWNER_ROLES } from '../../../lib/contract/customer-vocabulary';
import { AppError, type FieldError } from '../../../lib/errors';
import type { Address } from './customer';
import { defined } from './customer-fields';
import type { CustomerVerificationStatus } from './verification';
import type { OwnerFacts } from './verification-requirements';

export { OWNER_ROLES };

export interface PersonalInfo {
  firstName?: string;
  middleName?: string;
  lastName?: string;
  birthDate?: string;
  nationality?: string;
  email?: string;
  phoneNumber?: string;
  address?: Address;
  idType?: string;
  /** Write-only; stored sealed. */
  identifier?: string;
  countryOfIssuance?: string;
}

export interface BeneficialOwner {
  id: string;
  platformId: string;
  customerId: string;
  roles: string[];
  ownershipPercentage: number;
  personalInfo: Omit<PersonalInfo, 'identifier'>;
  sealedIdentifier?: string;
  kycStatus: CustomerVerificationStatus;
  createdAt: string;
  updatedAt: string;
  revision: number;
}

export interface OwnerDraft {
  customerId: string;
  roles?: string[];
  ownershipPercentage?: number;
  personalInfo?: PersonalInfo;
}

const PERSONAL_REQUIRED = [
  'firstName',
  'lastName',
  'birthDate',
  'nationality',
  'address',
  'idType',
  'identifier',
] as const;
const ADDRESS_REQUIRED = ['line1', 'postalCode', 'country'] as const;

const absent = (value: unknown) => value === undefined || value === '';

function addressOf(a: AddressFields): Address {
  return defined({
    line1: a.line1 ?? '',
    line2: a.line2,
    city: a.city,
    state: a.state,
    postalCode: a.postalCode ?? '',
    country: a.country ?? '',
  });
}

function personalInfoOf(p: PersonalInfoFields): PersonalInfo {
  return defined({
    firstName: p.firstName,
    middleName: p.middleName,
    lastName: p.lastName,
    birthDate: p.birthDate,
    nationality: p.nationality,
    email: p.email,
    phoneNumber: p.phoneNumber,
    address: p.address && addressOf(p.address),
    idType: p.idType,
    identifier: p.identifier,
    countryOfIssuance: p.countryOfIssuance,
  });
}

/** What a create must carry (the contract requires it; a caller that skipped the contract hears it listed). */
function missingOnCreate(fields: BeneficialOwnerFields): FieldError[] {
  const p = fields.personalInfo;
  const address = p?.address;
  return [
    ...(absent(fields.customerId) ? ['customerId'] : []),
    ...(fields.roles?.values.length ? [] : ['roles']),
    ...(fields.ownershipPercentage === undefined ? ['ownershipPercentage'] : []),
    ...(!p ? ['personalInfo'] : PERSONAL_REQUIRED.filter((k) => absent(p[k])).map((k) => `personalInfo.${k}`)),
    ...(address ? ADDRESS_REQUIRED.filter((k) => absent(address[k])).map((k) => `personalInfo.address.${k}`) : []),
  ].map((field) => ({ field, message: 'is required' }));
}

/**
 * A create (`creating`) or update request as its typed message; its shape is the contract's.
 * Roles given twice count once; an ownership percentage outside 0..100 (a fraction arrives as -1) is refused.
 */
export function validateOwnerRequest(fields: BeneficialOwnerFields | undefined, creating: boolean): OwnerDraft {
  const f = fields ?? {};
  const errors = creating ? missingOnCreate(f) : [];
  const percentage = f.ownershipPercentage;
  if (percentage !== undefined && (percentage < 0 || percentage > 100)) {
    errors.push({ field: 'ownershipPercentage', message: 'must be an integer between 0 and 100' });
  }
  if (f.roles && !f.roles.values.length && !creating) {
    errors.push({ field: 'roles', message: 'must list at least one role', constraint: { enum: [...OWNER_ROLES] } });
  }
  if (errors.length) {
    throw AppError.invalidInput(creating ? 'Invalid beneficial owner' : 'Invalid beneficial owner update', errors);
  }
  return defined({
    customerId: f.customerId ?? '',
    roles: f.roles && [...new Set(f.roles.values)],
    ownershipPercentage: percentage,
    personalInfo: f.personalInfo && personalInfoOf(f.personalInfo),
  });
}

/** The owner after an update: personalInfo members merge, the rest replace. */
export function applyOwnerChanges(
  owner: BeneficialOwner,
  changes: OwnerDraft,
  now: string,
  sealedIdentifier?: string,
): BeneficialOwner {
  const { identifier: _plain, ...info } = changes.personalInfo ?? {};
  return {
    ...owner,
    ...(changes.roles ? { roles: changes.roles } : {}),
    ...(changes.ownershipPercentage !== undefined ? { ownershipPercentage: changes.ownershipPercentage } : {}),
    personalInfo: { ...owner.personalInfo, ...info },
    ...(sealedIdentifier ? { sealedIdentifier } : {}),
    updatedAt: now,
    revision: owner.revision + 1,
  };
}

/** What verification reads of an owner. */
export function ownerFacts(o: BeneficialOwner): OwnerFacts {
  return {
    id: o.id,
    roles: o.roles,
    personalInfo: { ...o.personalInfo, hasIdentifier: o.sealedIdentifier !== undefined },
  };
}

/** What a reader sees of an identification number: only its last four characters, and none of a short one. */
export function maskIdentifier(plain: string): string {
  const shown = plain.length >= 8 ? 4 : 0;
  return '*'.repeat(plain.length - shown) + plain.slice(plain.length - shown);
}
