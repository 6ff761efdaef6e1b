import { AppError } from '../../../lib/errors';
import { E164 } from '../../../lib/value-formats';
import type { Address } from './customer';
import { defined, readAddress, TEXT } from './customer-fields';
import { ID_TYPES, OWNER_ROLES } from '../../../lib/contract/customer-vocabulary';
import { FieldReader, isJsonObject, type JsonObject } from './field-reader';
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

const COUNTRY = { format: 'iso3166-1-alpha-2' } as const;
const PERSONAL_REQUIRED = ['firstName', 'lastName', 'birthDate', 'nationality', 'address', 'idType', 'identifier'] as const;

function readPersonalInfo(r: FieldReader, body: JsonObject, creating: boolean): PersonalInfo | undefined {
  const obj = r.object(body, 'personalInfo', 'personalInfo', creating);
  if (!obj) return undefined;
  const req = (key: (typeof PERSONAL_REQUIRED)[number]) => creating && PERSONAL_REQUIRED.includes(key);
  const f = (key: string) => `personalInfo.${key}`;
  const address = readAddress(r, obj, f('address'));
  if (req('address') && obj.address === undefined) r.fail(f('address'), 'is required');
  return defined({
    firstName: r.string(obj, 'firstName', f('firstName'), { ...TEXT, required: req('firstName') }),
    middleName: r.string(obj, 'middleName', f('middleName'), TEXT),
    lastName: r.string(obj, 'lastName', f('lastName'), { ...TEXT, required: req('lastName') }),
    birthDate: r.string(obj, 'birthDate', f('birthDate'), { format: 'date', required: req('birthDate') }),
    nationality: r.string(obj, 'nationality', f('nationality'), { ...COUNTRY, required: req('nationality') }),
    email: r.string(obj, 'email', f('email'), { format: 'email' }),
    phoneNumber: r.string(obj, 'phoneNumber', f('phoneNumber'), { pattern: E164, format: 'e.164' }),
    address,
    idType: r.enumValue(obj, 'idType', f('idType'), ID_TYPES, req('idType')),
    identifier: r.string(obj, 'identifier', f('identifier'), { minLength: 1, maxLength: 64, required: req('identifier') }),
    countryOfIssuance: r.string(obj, 'countryOfIssuance', f('countryOfIssuance'), COUNTRY),
  });
}

function readRoles(r: FieldReader, body: JsonObject, creating: boolean): string[] | undefined {
  if (creating && body.roles === undefined) r.fail('roles', 'is required');
  const roles = r.enumArray(body, 'roles', 'roles', OWNER_ROLES);
  if (roles && roles.length === 0) r.fail('roles', 'must list at least one role', { enum: [...OWNER_ROLES] });
  return roles ? [...new Set(roles)] : undefined;
}

/** A create (`creating`) or update request; every invalid member is listed at once. */
export function validateOwnerRequest(body: unknown, creating: boolean): OwnerDraft {
  if (!isJsonObject(body)) throw AppError.invalidInput('Request body must be a JSON object');
  const r = new FieldReader();
  const customerId = creating ? r.string(body, 'customerId', 'customerId', { required: true, minLength: 1 }) : undefined;
  const draft = defined({
    customerId: customerId ?? '',
    roles: readRoles(r, body, creating),
    ownershipPercentage: r.integer(body, 'ownershipPercentage', 'ownershipPercentage', { min: 0, max: 100, required: creating }),
    personalInfo: readPersonalInfo(r, body, creating),
  });
  r.throwIfInvalid(creating ? 'Invalid beneficial owner' : 'Invalid beneficial owner update');
  return draft;
}

/** The owner after an update: personalInfo members merge, the rest replace. */
export function applyOwnerChanges(owner: BeneficialOwner, changes: OwnerDraft, now: string, sealedIdentifier?: string): BeneficialOwner {
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
  return { id: o.id, roles: o.roles, personalInfo: { ...o.personalInfo, hasIdentifier: o.sealedIdentifier !== undefined } };
}

/** What a reader sees of an identification number: only its last four characters, and none of a short one. */
export function maskIdentifier(plain: string): string {
  const shown = plain.length >= 8 ? 4 : 0;
  return '*'.repeat(plain.length - shown) + plain.slice(plain.length - shown);
}
