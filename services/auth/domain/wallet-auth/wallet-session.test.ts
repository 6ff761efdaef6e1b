import { isSessionActive } from './wallet-session';

describe('isSessionActive', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  test.each(
    [
      ['ACTIVE', '2026-01-01T00:00:00.001Z', true],
      ['ACTIVE', '2026-01-01T00:00:00.000Z', false],
      ['ACTIVE', '2025-12-31T23:59:59.999Z', false],
      ['REVOKED', '2027-01-01T00:00:00.000Z', false],
    ] as const,
  )('%s until %s -> %s', (state, expiresAt, expected) => {
    expect(isSessionActive({ state, expiresAt }, now)).toBe(expected);
  });
});
