import type { CustomerFields } from '../../../gen/accounts/v1/customer_requests';
import { AppError, type FieldError } from '../../../lib/errors';
import { CUSTOMER_TYPES, type CustomerType } from '../../../lib/contract/customer-vocabulary';
import type { CustomerChanges, CustomerDraft, CustomerProfile } from './customer';
import { businessInfoOf, contactProfileOf, defined, individualProfileOf } from './customer-fields';
import { dueDiligenceProblems } from './due-diligence-rules';

/*
 * The customer rules, on the typed request message. Shapes, formats and enums are the contract's
 * (lib/contract/customer-requests.ts), checked at the gateway and on each CSV import row; what is
 * left here needs the platform (its currencies), the customer (its type) or several members at once.
 * A caller that skips the contract and leaves out a member the rules need hears it listed.
 */

const ADDRESS_REQUIRED = ['line1', 'postalCode', 'country'] as const;
const BUSINESS_REQUIRED_ON_CREATE = ['legalName', 'country', 'taxId', 'incorporatedOn'] as const;

const absent = (value: string | undefined) => value === undefined || value === '';
const required = (field: string): FieldError => ({ field, message: 'is required' });

/** `currencies`: a non-empty list drawn from the platform's currencies; duplicates collapse. */
function currenciesOf(f: CustomerFields, supported: readonly string[], errors: FieldError[]): string[] | undefined {
  if (!f.currencies) return undefined;
  const values = f.currencies.values;
  if (!values.length) {
    errors.push({
      field: 'currencies',
      message: 'must list at least one currency',
      constraint: { enum: [...supported] },
    });
  }
  values.forEach((c, i) => {
    if (!supported.includes(c)) {
      errors.push({
        field: `currencies[${i}]`,
        message: `must be one of ${supported.join(', ')}`,
        constraint: { enum: [...supported] },
      });
    }
  });
  return [...new Set(values)];
}

function missingMembers(f: CustomerFields, type: CustomerType | undefined, creating: boolean): FieldError[] {
  const address = f.address;
  const business = f.businessInfo;
  return [
    ...(address ? ADDRESS_REQUIRED.filter((k) => absent(address[k])).map((k) => required(`address.${k}`)) : []),
    ...(creating && type === 'BUSINESS' && !business ? [required('businessInfo')] : []),
    ...(creating && type === 'BUSINESS' && business
      ? BUSINESS_REQUIRED_ON_CREATE.filter((k) => absent(business[k])).map((k) => required(`businessInfo.${k}`))
      : []),
  ];
}

function profileOf(f: CustomerFields, type: CustomerType | undefined, errors: FieldError[]): CustomerProfile {
  const contact = contactProfileOf(f);
  if (type === 'INDIVIDUAL') {
    const profile = { ...contact, ...individualProfileOf(f) };
    errors.push(...dueDiligenceProblems(profile));
    return profile;
  }
  if (type === 'BUSINESS') {
    return defined({ ...contact, businessInfo: f.businessInfo && businessInfoOf(f.businessInfo) });
  }
  return contact;
}

function customerTypeOf(
  f: CustomerFields,
  allowed: readonly CustomerType[],
  errors: FieldError[],
): CustomerType | undefined {
  const constraint = { enum: [...allowed] };
  if (absent(f.customerType)) errors.push({ field: 'customerType', message: 'is required', constraint });
  else if (!allowed.includes(f.customerType as CustomerType)) {
    errors.push({ field: 'customerType', message: `must be one of ${allowed.join(', ')}`, constraint });
  } else return f.customerType as CustomerType;
  return undefined;
}

/** A customer create request (REST CustomerCreateRequest, INDIVIDUAL or BUSINESS): every broken rule at once. */
export function validateCustomerCreate(
  fields: CustomerFields | undefined,
  supportedCurrencies: readonly string[],
): CustomerDraft {
  const f = fields ?? {};
  const errors: FieldError[] = [];
  const customerType = customerTypeOf(f, CUSTOMER_TYPES, errors);
  const currencies = currenciesOf(f, supportedCurrencies, errors);
  errors.push(...missingMembers(f, customerType, true));
  const profile = profileOf(f, customerType, errors);
  if (errors.length) throw AppError.invalidInput('Invalid customer', errors);
  return defined({
    customerType: customerType!,
    platformCustomerId: f.platformCustomerId,
    region: f.region,
    currencies,
    profile,
  });
}

/**
 * A customer update request (REST CustomerUpdateRequest). `customerType` must be the customer's
 * own type; email and phone number change in separate requests.
 */
export function validateCustomerUpdate(
  fields: CustomerFields | undefined,
  currentType: CustomerType,
  supportedCurrencies: readonly string[],
): CustomerChanges {
  const f = fields ?? {};
  const errors: FieldError[] = [];
  customerTypeOf(f, [currentType], errors);
  const currencies = currenciesOf(f, supportedCurrencies, errors);
  errors.push(...missingMembers(f, currentType, false));
  const profile = profileOf(f, currentType, errors);
  if (f.email !== undefined && f.phoneNumber !== undefined) {
    errors.push({ field: 'phoneNumber', message: 'email and phoneNumber must be updated in separate requests' });
  }
  if (errors.length) throw AppError.invalidInput('Invalid customer update', errors);
  return defined({ currencies, profile });
}
