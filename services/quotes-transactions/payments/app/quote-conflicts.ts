import { AppError } from '../../../../lib/errors';

/**
 * A quote that can no longer be executed: 409 `CONFLICT` (the reference's Error409 has no code of
 * its own for these), with `details.reason` telling the two cases apart.
 */
export function quoteExpired(quote: { id: string; expiresAt: string }): AppError {
  return new AppError('CONFLICT', `Quote ${quote.id} expired at ${quote.expiresAt}`, { reason: 'QUOTE_EXPIRED' });
}

export function quoteAlreadyExecuted(message: string, transactionId?: string): AppError {
  return new AppError('CONFLICT', message, {
    reason: 'QUOTE_ALREADY_EXECUTED',
    ...(transactionId ? { transactionId } : {}),
  });
}
