import { AppError } from '../../../lib/errors';
import type { Payment } from '../domain/payment';

/** The same Idempotency-Key with the same body answers the first result; with another body it is refused. */
export function sameRequestOrConflict(earlier: Payment, hash: string): Payment {
  if (earlier.idempotency?.hash === hash) return earlier;
  throw AppError.invalidInput('The Idempotency-Key was already used with a different request', [
    { field: 'Idempotency-Key', message: 'was used for another request body' },
  ]);
}
