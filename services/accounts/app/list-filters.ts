import { AppError } from '../../../lib/errors';
import type { CustomerFilter } from './accounts-store';

/** List filters as received (query parameters, their shape checked by the gateway's contract). */
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

const TIME_BOUNDS = ['createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore'] as const;

/** Stored timestamps are toISOString() strings, so bounds are normalised the same way to compare. */
function normalisedTimes(query: CustomerQuery): Pick<CustomerFilter, (typeof TIME_BOUNDS)[number]> {
  const unreadable = TIME_BOUNDS.filter((k) => query[k] !== undefined && Number.isNaN(Date.parse(query[k]!)));
  if (unreadable.length) {
    throw AppError.invalidInput(
      'Invalid list parameters',
      unreadable.map((field) => ({
        field,
        message: 'must be an RFC 3339 date-time',
        constraint: { format: 'date-time' },
      })),
    );
  }
  return Object.fromEntries(
    TIME_BOUNDS.map((k) => [k, query[k] === undefined ? undefined : new Date(query[k]!).toISOString()]),
  );
}

export function readCustomerFilter(query: CustomerQuery): CustomerFilter {
  const { platformCustomerId, customerType, region, currency, umaAddress, includeDeleted } = query;
  return { platformCustomerId, customerType, ...normalisedTimes(query), region, currency, umaAddress, includeDeleted };
}

/** Optional customer id, currency and internal account type of the account lists. */
export function readAccountFilter(query: { customerId?: string; currency?: string; type?: string }) {
  return { customerId: query.customerId, currency: query.currency, type: query.type };
}
