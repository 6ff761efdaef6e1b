import { AppError } from '../../../lib/errors';
import type { CustomerChanges, CustomerDraft, CustomerProfile } from './customer';
import { defined, readBusinessInfo, readContactFields, readIndividualFields } from './customer-fields';
import { CUSTOMER_TYPES, type CustomerType } from '../../../lib/contract/customer-vocabulary';
import { dueDiligenceProblems } from './due-diligence-rules';
import { FieldReader, isJsonObject, type JsonObject } from './field-reader';

export const PLATFORM_CUSTOMER_ID_LENGTH = { minLength: 1, maxLength: 128 } as const;

function requireObject(body: unknown): JsonObject {
  if (!isJsonObject(body)) throw AppError.invalidInput('Request body must be a JSON object');
  return body;
}

/** `currencies`: a non-empty list drawn from the platform's currencies; duplicates collapse. */
function readCurrencies(r: FieldReader, body: JsonObject, supported: readonly string[]): string[] | undefined {
  const list = r.array(body, 'currencies', 'currencies', (v, f) => r.enumItem(v, f, supported));
  if (list && list.length === 0) {
    r.fail('currencies', 'must list at least one currency', { enum: [...supported] });
    return undefined;
  }
  return list ? [...new Set(list)] : undefined;
}

function readTypedFields(r: FieldReader, body: JsonObject, type: CustomerType | undefined, creating: boolean): CustomerProfile {
  if (type === 'INDIVIDUAL') {
    const profile = readIndividualFields(r, body);
    r.errors.push(...dueDiligenceProblems(profile));
    return profile;
  }
  if (type === 'BUSINESS') return defined({ businessInfo: readBusinessInfo(r, body, creating) });
  return {};
}

/**
 * A customer create request (REST CustomerCreateRequest, INDIVIDUAL or BUSINESS). Every invalid
 * member is reported at once; with an invalid `customerType` only the common members are checked.
 */
export function validateCustomerCreate(body: unknown, supportedCurrencies: readonly string[]): CustomerDraft {
  const obj = requireObject(body);
  const r = new FieldReader();
  const customerType = r.enumValue(obj, 'customerType', 'customerType', CUSTOMER_TYPES, true);
  const platformCustomerId = r.string(obj, 'platformCustomerId', 'platformCustomerId', PLATFORM_CUSTOMER_ID_LENGTH);
  const region = r.string(obj, 'region', 'region', { format: 'iso3166-1-alpha-2' });
  const currencies = readCurrencies(r, obj, supportedCurrencies);
  const profile = { ...readContactFields(r, obj), ...readTypedFields(r, obj, customerType, true) };
  r.throwIfInvalid('Invalid customer');
  return defined({ customerType: customerType!, platformCustomerId, region, currencies, profile });
}

/**
 * A customer update request (REST CustomerUpdateRequest). `customerType` must be the customer's
 * own type; email and phone number change in separate requests.
 */
export function validateCustomerUpdate(body: unknown, currentType: CustomerType, supportedCurrencies: readonly string[]): CustomerChanges {
  const obj = requireObject(body);
  const r = new FieldReader();
  r.enumValue(obj, 'customerType', 'customerType', [currentType], true);
  const currencies = readCurrencies(r, obj, supportedCurrencies);
  const profile = { ...readContactFields(r, obj), ...readTypedFields(r, obj, currentType, false) };
  if (obj.email !== undefined && obj.phoneNumber !== undefined) {
    r.fail('phoneNumber', 'email and phoneNumber must be updated in separate requests');
  }
  r.throwIfInvalid('Invalid customer update');
  return defined({ currencies, profile });
}
