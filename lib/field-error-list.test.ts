import { AppError } from './errors';
import { mergeFieldErrors, validateAlongside } from './field-error-list';

test("the gateway's errors come first; a service error within a refused member adds nothing", () => {
  const earlier = [{ field: 'address', message: 'must be an object' }, {
    field: 'currencies[0]',
    message: 'must be a string',
  }];
  const found = [{ field: 'address.postalCode', message: 'is required' }, {
    field: 'birthDate',
    message: 'must not be in the future',
  }, { field: 'addressee', message: 'is required' }];
  expect(mergeFieldErrors(earlier, found).map((e) => e.field)).toEqual([
    'address',
    'currencies[0]',
    'birthDate',
    'addressee',
  ]);
});

test('with earlier errors nothing after validation runs, even when the use case finds nothing wrong', () => {
  expect(() => validateAlongside([{ field: 'name', message: 'must be a string' }], () => 'valid')).toThrow(AppError);
  try {
    validateAlongside([{ field: 'name', message: 'must be a string' }], () => {
      throw AppError.invalidInput('Invalid', [{ field: 'currency', message: 'is not supported' }]);
    });
  } catch (err) {
    expect((err as AppError).details?.errors).toEqual([{ field: 'name', message: 'must be a string' }, {
      field: 'currency',
      message: 'is not supported',
    }]);
  }
  expect(validateAlongside(undefined, () => 'valid')).toBe('valid');
  expect(validateAlongside([], () => 'valid')).toBe('valid');
});
