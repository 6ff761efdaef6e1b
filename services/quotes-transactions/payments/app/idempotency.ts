import { AppError } from '../../../../lib/errors';
import type { Payment } from '../domain/payment';

/**
 * The same Idempotency-Key with the same body answers the first result; with another body (or
 * operation) it is refused as the gateway refuses it (422), even once the gateway's record of the
 * key is purged (docs/idempotency.md).
 */
export function sameRequestOrConflict(earlier: Payment, hash: string): Payment {
  if (earlier.idempotency?.hash === hash) return earlier;
  throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for another request');
}
