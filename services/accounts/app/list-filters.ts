import { idPattern } from '../../../lib/ids';
import { CUSTOMER_TYPES } from '../../../lib/contract/customer-vocabulary';
import { FieldReader, type JsonObject } from '../domain/field-reader';
import { INTERNAL_ACCOUNT_TYPES } from '../domain/internal-account';
import type { CustomerFilter } from './accounts-store';

/** List filters as received (query parameters); each is checked and normalised here. */
export interface CustomerQuery {
  platformCustomerId?: string;
  customerType?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  region?: string;
  currency?: string;
  umaAddress?: string;
  includeDeleted: boolean;
}

const CUSTOMER_ID = new RegExp(idPattern('Customer'));
const CURRENCY_CODE = /^[A-Z0-9]{3,5}$/;

/** Stored timestamps are toISOString() strings, so bounds are normalised the same way to compare. */
function normalisedTime(r: FieldReader, query: JsonObject, key: string): string | undefined {
  const value = r.string(query, key, key, { format: 'date-time' });
  return value === undefined ? undefined : new Date(value).toISOString();
}

export function readCustomerFilter(query: CustomerQuery): CustomerFilter {
  const q = query as unknown as JsonObject;
  const r = new FieldReader();
  const filter: CustomerFilter = {
    platformCustomerId: r.string(q, 'platformCustomerId', 'platformCustomerId', { minLength: 1, maxLength: 128 }),
    customerType: r.enumValue(q, 'customerType', 'customerType', CUSTOMER_TYPES),
    createdAfter: normalisedTime(r, q, 'createdAfter'),
    createdBefore: normalisedTime(r, q, 'createdBefore'),
    updatedAfter: normalisedTime(r, q, 'updatedAfter'),
    updatedBefore: normalisedTime(r, q, 'updatedBefore'),
    region: r.string(q, 'region', 'region', { format: 'iso3166-1-alpha-2' }),
    currency: r.string(q, 'currency', 'currency', { pattern: CURRENCY_CODE }),
    umaAddress: r.string(q, 'umaAddress', 'umaAddress', { minLength: 1, maxLength: 255 }),
    includeDeleted: query.includeDeleted,
  };
  r.throwIfInvalid('Invalid list parameters');
  return filter;
}

/** Optional customer id, currency and internal account type of the account lists. */
export function readAccountFilter(query: { customerId?: string; currency?: string; type?: string }) {
  const q = query as JsonObject;
  const r = new FieldReader();
  const filter = {
    customerId: r.string(q, 'customerId', 'customerId', { pattern: CUSTOMER_ID }),
    currency: r.string(q, 'currency', 'currency', { pattern: CURRENCY_CODE }),
    type: r.enumValue(q, 'type', 'type', INTERNAL_ACCOUNT_TYPES),
  };
  r.throwIfInvalid('Invalid list parameters');
  return filter;
}
