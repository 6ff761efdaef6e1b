import { AppError } from '../../../lib/errors';

/** An ISO 8601 timestamp filter of the token list, or undefined when absent. */
export function timestampFilter(value: string | undefined, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw AppError.invalidInput('Invalid filter', [{
      field,
      message: 'must be an ISO 8601 date-time',
      constraint: { format: 'date-time' },
    }]);
  }
  return new Date(ms).toISOString();
}
