import type { Address, Customer } from './customer';
import type { VerificationErrorType, VerificationProblem } from './verification';

/** What a beneficial owner contributes to its business's KYB. */
export interface OwnerFacts {
  id: string;
  roles: string[];
  personalInfo: {
    firstName?: string;
    lastName?: string;
    birthDate?: string;
    nationality?: string;
    address?: Address;
    idType?: string;
    hasIdentifier: boolean;
  };
}

/** An uploaded document, by holder (a customer or a beneficial owner) and type. */
export interface DocumentFacts {
  id: string;
  holderId: string;
  documentType: string;
}

/** Which document types satisfy each document requirement (the reference's table). */
export const ACCEPTED_DOCUMENTS = {
  MISSING_LEGAL_PRESENCE_DOCUMENT: [
    'CERTIFICATE_OF_INCORPORATION',
    'ARTICLES_OF_INCORPORATION',
    'ARTICLES_OF_ASSOCIATION',
    'STATE_REGISTRY_EXCERPT',
  ],
  MISSING_CONTROL_STRUCTURE_DOCUMENT: [
    'DIRECTOR_REGISTRY',
    'TRUST_AGREEMENT',
    'STATE_COMPANY_REGISTRY',
    'PARTNERSHIP_CONTROL_AGREEMENT',
  ],
  MISSING_OWNERSHIP_STRUCTURE_DOCUMENT: ['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT'],
  MISSING_PROOF_OF_ADDRESS_DOCUMENT: [
    'UTILITY_BILL',
    'RENT_OR_LEASE_AGREEMENT',
    'ELECTRICITY_BILL',
    'BANK_STATEMENT',
    'TAX_RETURN',
    'PROOF_OF_ADDRESS',
  ],
  MISSING_IDENTITY_DOCUMENT: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
} as const;
type DocumentRequirement = keyof typeof ACCEPTED_DOCUMENTS;

/** Monthly volumes from which a customer's wealth and income must be declared. */
const HIGH_VOLUMES = ['VOLUME_1M_TO_10M', 'VOLUME_OVER_10M'];
/** Entities without individual owners of 25% or more to declare. */
const NO_UBO_ENTITIES = ['PUBLICLY_LISTED_COMPANY', 'NON_PROFIT', 'CHARITY'];

class Problems {
  readonly list: VerificationProblem[] = [];
  missing(resourceId: string, field: string, reason: string): void {
    this.list.push({ resourceId, type: 'MISSING_FIELD', field, reason });
  }
  invalid(resourceId: string, field: string, reason: string): void {
    this.list.push({ resourceId, type: 'INVALID_FIELD', field, reason });
  }
  other(resourceId: string, type: VerificationErrorType, reason: string): void {
    this.list.push({ resourceId, type, reason });
  }
  document(resourceId: string, type: DocumentRequirement, docs: DocumentFacts[], reason: string): void {
    const accepted: readonly string[] = ACCEPTED_DOCUMENTS[type];
    if (docs.some((d) => d.holderId === resourceId && accepted.includes(d.documentType))) return;
    this.list.push({ resourceId, type, acceptedDocumentTypes: [...accepted], reason });
  }
}

/** An address to check, where it sits (`prefix`) in the resource `resourceId`, and whose it is in the messages. */
interface AddressToCheck {
  resourceId: string;
  prefix: string;
  address: Address | undefined;
  whose: string;
}

function addressProblems(p: Problems, { resourceId, prefix, address, whose }: AddressToCheck): void {
  const members: [keyof Address, string][] = [['line1', 'line 1'], ['city', 'city'], ['postalCode', 'postal code'], [
    'country',
    'country',
  ]];
  for (const [member, words] of members) {
    if (!address?.[member]) {
      p.missing(resourceId, `${prefix}.address.${member}`, `${whose} address ${words} is required`);
    }
  }
}

/** A customer's category list and the description member (`field`) that "OTHER" needs. */
interface CategoryChoice {
  customer: Customer;
  categories: string[] | string | undefined;
  description: string | undefined;
  field: string;
}

/** "OTHER" in a category list needs its description. */
function otherDescribed(p: Problems, { customer: c, categories, description, field }: CategoryChoice): void {
  const chosen = Array.isArray(categories) ? categories : categories ? [categories] : [];
  if (chosen.includes('OTHER') && !description) {
    p.missing(c.id, `customer.${field}`, `${field} is required when OTHER is chosen`);
  }
}

function dueDiligenceProblems(p: Problems, c: Customer): void {
  const described = (categories: string[] | string | undefined, description: string | undefined, field: string) =>
    otherDescribed(p, { customer: c, categories, description, field });
  described(c.sourceOfFundsCategories, c.sourceOfFundsOtherDescription, 'sourceOfFundsOtherDescription');
  described(c.sourceOfWealthCategories, c.sourceOfWealthOtherDescription, 'sourceOfWealthOtherDescription');
  described(c.purposeOfAccount, c.purposeOfAccountOtherDescription, 'purposeOfAccountOtherDescription');
  const exposed = c.pepStatus !== undefined && c.pepStatus !== 'NONE';
  const highVolume = HIGH_VOLUMES.includes(c.expectedMonthlyTransactionVolume ?? '');
  if ((exposed || highVolume) && !c.sourceOfWealthCategories?.length) {
    p.missing(
      c.id,
      'customer.sourceOfWealthCategories',
      exposed
        ? 'Source of wealth is required for a politically exposed person'
        : 'Source of wealth is required at this expected volume',
    );
  }
  if (highVolume && !c.annualIncomeRange) {
    p.missing(c.id, 'customer.annualIncomeRange', 'Annual income is required at this expected volume');
  }
  if (highVolume && !c.netWorthRange) {
    p.missing(c.id, 'customer.netWorthRange', 'Net worth is required at this expected volume');
  }
}

function individualProblems(p: Problems, c: Customer, docs: DocumentFacts[]): void {
  if (!c.fullName) p.missing(c.id, 'customer.fullName', 'Full name is required');
  if (!c.birthDate) p.missing(c.id, 'customer.birthDate', 'Date of birth is required');
  if (!c.nationality) p.missing(c.id, 'customer.nationality', 'Nationality is required');
  addressProblems(p, { resourceId: c.id, prefix: 'customer', address: c.address, whose: 'Residential' });
  const usPerson = c.nationality === 'US' || c.region === 'US' || c.address?.country === 'US';
  if (usPerson && !c.sealedIdentifier) {
    p.missing(c.id, 'customer.identifier', 'An SSN or ITIN is required for a US person');
  }
  if (c.sealedIdentifier && !c.idType) {
    p.missing(c.id, 'customer.idType', 'The type of the identification number is required');
  }
  if ((c.idType === 'SSN' || c.idType === 'ITIN') && c.countryOfIssuance && c.countryOfIssuance !== 'US') {
    p.invalid(c.id, 'customer.countryOfIssuance', 'An SSN or ITIN is issued by the US');
  }
  dueDiligenceProblems(p, c);
  p.document(c.id, 'MISSING_IDENTITY_DOCUMENT', docs, 'An identity document is required');
}

function ownerProblems(p: Problems, o: OwnerFacts, docs: DocumentFacts[]): void {
  const info = o.personalInfo;
  if (!info.firstName) p.missing(o.id, 'personalInfo.firstName', 'First name is required for beneficial owners');
  if (!info.lastName) p.missing(o.id, 'personalInfo.lastName', 'Last name is required for beneficial owners');
  if (!info.birthDate) p.missing(o.id, 'personalInfo.birthDate', 'Date of birth is required for beneficial owners');
  if (!info.nationality) p.missing(o.id, 'personalInfo.nationality', 'Nationality is required for beneficial owners');
  addressProblems(p, { resourceId: o.id, prefix: 'personalInfo', address: info.address, whose: 'Residential' });
  if (!info.hasIdentifier) {
    p.missing(o.id, 'personalInfo.identifier', 'An identification number is required for beneficial owners');
  }
  p.document(o.id, 'MISSING_IDENTITY_DOCUMENT', docs, 'An identity document is required for beneficial owners');
}

function businessProblems(p: Problems, c: Customer, owners: OwnerFacts[], docs: DocumentFacts[]): void {
  const b = c.businessInfo ?? {};
  if (!b.legalName) p.missing(c.id, 'customer.businessInfo.legalName', 'Legal name is required');
  if (!b.taxId) p.missing(c.id, 'customer.businessInfo.taxId', 'Tax identification number is required');
  if (!b.country) p.missing(c.id, 'customer.businessInfo.country', 'Country of incorporation is required');
  if (!b.incorporatedOn) p.missing(c.id, 'customer.businessInfo.incorporatedOn', 'Date of incorporation is required');
  if (!b.countriesOfOperation?.length) {
    p.missing(c.id, 'customer.businessInfo.countriesOfOperation', 'Countries of operation are required');
  }
  addressProblems(p, { resourceId: c.id, prefix: 'customer', address: c.address, whose: 'Business' });
  if (b.sourceOfFundsCategories?.includes('OTHER') && !b.sourceOfFundsOtherDescription) {
    p.missing(
      c.id,
      'customer.businessInfo.sourceOfFundsOtherDescription',
      'sourceOfFundsOtherDescription is required when OTHER is chosen',
    );
  }
  if (!owners.some((o) => o.roles.includes('CONTROL_PERSON'))) {
    p.other(c.id, 'MISSING_CONTROL_PERSON', 'One control person is required');
  }
  const needsOwners = !NO_UBO_ENTITIES.includes(b.entityType ?? '');
  if (needsOwners && !owners.some((o) => o.roles.includes('UBO'))) {
    p.other(c.id, 'MISSING_BENEFICIAL_OWNER', 'Every owner of 25% or more is required');
  }
  p.document(c.id, 'MISSING_LEGAL_PRESENCE_DOCUMENT', docs, 'A company formation document is required');
  p.document(c.id, 'MISSING_PROOF_OF_ADDRESS_DOCUMENT', docs, 'Proof of address document is required');
  if (needsOwners) {
    p.document(c.id, 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT', docs, 'Proof of the ownership structure is required');
  }
  for (const owner of owners) ownerProblems(p, owner, docs);
}

/**
 * Everything still missing before a customer can go to the provider: one entry per problem,
 * naming the field (dot path from the resource) or the document types that would do.
 */
export function verificationProblems(
  customer: Customer,
  owners: OwnerFacts[],
  documents: DocumentFacts[],
): VerificationProblem[] {
  const p = new Problems();
  if (customer.customerType === 'BUSINESS') businessProblems(p, customer, owners, documents);
  else individualProblems(p, customer, documents);
  return p.list;
}
