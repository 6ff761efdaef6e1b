import { AppError, type FieldError } from '../../../lib/errors';

/** The `details.errors` of the INVALID_INPUT that `run` throws; fails the test when it throws nothing else. */
export function fieldErrorsOf(run: () => unknown): FieldError[] {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('INVALID_INPUT');
    return ((err as AppError).details?.errors ?? []) as FieldError[];
  }
  throw new Error('expected INVALID_INPUT');
}
