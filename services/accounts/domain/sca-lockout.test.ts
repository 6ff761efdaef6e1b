import {
  afterEvent,
  afterFactorReset,
  afterSettled,
  attemptsLeft,
  isLocked,
  NO_LOCKOUT,
  withReservation,
  type LoginSecurity,
} from './sca-lockout';

const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const reserve = (s: LoginSecurity, id: string, now = t0) => withReservation(s, { id, at: now.toISOString() }, now);

test('reservations in flight count against the attempts left: never more than 5 before the lock', () => {
  let state: LoginSecurity = NO_LOCKOUT;
  for (let i = 0; i < 5; i += 1) state = reserve(state, `r${i}`)!;
  expect(reserve(state, 'r5')).toBeUndefined();
  for (let i = 0; i < 5; i += 1) state = afterSettled(state, `r${i}`, true, t0);
  expect(state.failedAttempts).toBe(5);
  expect(isLocked(state, t0)).toBe(true);
});

test('a right proof gives its reservation back; after a lock ends one attempt is left', () => {
  let state = reserve(NO_LOCKOUT, 'a')!;
  state = afterSettled(state, 'a', false, t0);
  expect(state.failedAttempts).toBe(0);
  expect(attemptsLeft(state, t0)).toBe(5);
  for (let i = 0; i < 5; i += 1) state = afterEvent(state, 'FAILED_LOGIN_ATTEMPT', t0);
  expect(attemptsLeft(state, t0)).toBe(0);
  expect(attemptsLeft(state, at(15 * 60_000 + 1))).toBe(1);
});

test('a recorded password reset never clears the lock or the count; a factor reset does', () => {
  let state: LoginSecurity = NO_LOCKOUT;
  for (let i = 0; i < 5; i += 1) state = afterEvent(state, 'FAILED_LOGIN_ATTEMPT', t0);
  const reset = afterEvent(state, 'RESET_PASSWORD_COMPLETED', at(1000));
  expect(isLocked(reset, at(1000))).toBe(true);
  expect(reset.failedAttempts).toBe(5);
  expect(reset.sessionsRevokedAt).toBe(at(1000).toISOString());
  const cleared = afterFactorReset(reset);
  expect(isLocked(cleared, at(1000))).toBe(false);
  expect(attemptsLeft(cleared, at(1000))).toBe(5);
});

test('a reservation abandoned by a dead process stops counting after a minute', () => {
  const state = reserve(NO_LOCKOUT, 'lost')!;
  expect(attemptsLeft(state, t0)).toBe(4);
  expect(attemptsLeft(state, at(61_000))).toBe(5);
});
