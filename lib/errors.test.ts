import { AppError, unlessAbsent } from './errors';

describe('unlessAbsent', () => {
  it('passes a found record through', async () => {
    await expect(unlessAbsent(Promise.resolve({ id: 'a' }))).resolves.toEqual({ id: 'a' });
  });

  it.each(['NOT_FOUND', 'REFERENCE_NOT_FOUND', 'USER_NOT_FOUND'] as const)('answers undefined for %s', async (code) => {
    await expect(unlessAbsent(Promise.reject(new AppError(code, 'gone')))).resolves.toBeUndefined();
  });

  it('still rejects with any other failure', async () => {
    await expect(unlessAbsent(Promise.reject(new AppError('INTERNAL_ERROR', 'boom')))).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
    });
    await expect(unlessAbsent(Promise.reject(new Error('network')))).rejects.toThrow('network');
  });
});
