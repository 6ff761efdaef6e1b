import { AppError, type FieldError } from './errors';

/** `address.line1` lies within `address`; `currencies[1]` within `currencies`. */
const within = (field: string, outer: string) =>
  field === outer || field.startsWith(`${outer}.`) || field.startsWith(`${outer}[`);

/**
 * Shape errors the gateway found (members it then left out) and the service's own: one list, the
 * gateway's first. A service error about a member the gateway already refused (it now reads as
 * missing) says nothing new and is dropped.
 */
export function mergeFieldErrors(earlier: readonly FieldError[], found: readonly FieldError[]): FieldError[] {
  return [...earlier, ...found.filter((e) => !earlier.some((prior) => within(e.field, prior.field)))];
}

/**
 * Runs a use case's validation with the shape errors the gateway already found for this request:
 * without any, it is just `validate()`; with some, the request is refused with both lists in one
 * INVALID_INPUT, whatever `validate` concludes, so nothing after validation ever runs.
 */
export function validateAlongside<T>(earlier: readonly FieldError[] | undefined, validate: () => T): T {
  if (!earlier?.length) return validate();
  let found: FieldError[] = [];
  try {
    validate();
  } catch (err) {
    if (err instanceof AppError && err.code === 'INVALID_INPUT') {
      found = (err.details?.errors as FieldError[] | undefined) ?? [];
    }
  }
  throw AppError.invalidInput('Invalid request', mergeFieldErrors(earlier, found));
}
