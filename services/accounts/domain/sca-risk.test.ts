import { afterFailedAttempt, afterPasswordReset, NO_LOCKOUT } from './sca-lockout';
import { RISK_WINDOW_MS, riskyEventWithin } from './sca-risk';

const t0 = new Date('2026-03-01T10:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);

test('no recorded event: no risk', () => {
  expect(riskyEventWithin(NO_LOCKOUT, t0)).toBeUndefined();
});

test('a failed attempt is a risk signal for the window, then no longer', () => {
  const state = afterFailedAttempt(NO_LOCKOUT, t0);
  expect(riskyEventWithin(state, later(60_000))).toBe('FAILED_LOGIN_ATTEMPT');
  expect(riskyEventWithin(state, later(RISK_WINDOW_MS - 1))).toBe('FAILED_LOGIN_ATTEMPT');
  expect(riskyEventWithin(state, later(RISK_WINDOW_MS))).toBeUndefined();
});

test('a password reset keeps the counter and is a risk signal for the window', () => {
  const failed = afterPasswordReset(afterFailedAttempt(NO_LOCKOUT, t0), later(1000));
  expect(failed.failedAttempts).toBe(1);
  expect(riskyEventWithin(failed, later(2000))).toBe('FAILED_LOGIN_ATTEMPT');
  const state = afterPasswordReset(NO_LOCKOUT, later(1000));
  expect(riskyEventWithin(state, later(2000))).toBe('RESET_PASSWORD_COMPLETED');
  expect(riskyEventWithin(state, later(RISK_WINDOW_MS + 1000))).toBeUndefined();
});

test('a suspended login is always a risk', () => {
  let state = NO_LOCKOUT;
  for (let i = 0; i < 9; i += 1) state = afterFailedAttempt(state, t0);
  expect(state.suspended).toBe(true);
  expect(riskyEventWithin(state, later(10 * RISK_WINDOW_MS))).toBe('FAILED_LOGIN_ATTEMPT');
});
