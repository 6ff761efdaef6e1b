import { AppError } from '../../../lib/errors';

/** The AppError a call rejects with (the test fails when it resolves or rejects with anything else). */
export async function appErrorOf(call: Promise<unknown>): Promise<AppError> {
  const err = await call.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}
