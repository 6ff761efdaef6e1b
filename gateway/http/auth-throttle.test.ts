import { createAuthThrottle, isThrottled, OPAQUE, type Attempt } from './auth-throttle';

const limits = { perToken: 3, perAddress: 5, windowSeconds: 60 };

test('attempts are reserved before the check: 16 at once against a limit of 3 let exactly 3 through', async () => {
  const throttle = createAuthThrottle(limits);
  const outcomes = await Promise.all(Array.from({ length: 16 }, () => throttle.reserve('token-a', '203.0.113.1')));
  expect(outcomes.filter((o) => !isThrottled(o))).toHaveLength(3);
  expect(outcomes.filter(isThrottled).every((o) => o.retryAfterSeconds > 0 && o.retryAfterSeconds <= 60)).toBe(true);
});

test('a right credential gives its reservation back; a wrong one keeps it', async () => {
  const throttle = createAuthThrottle(limits);
  for (let i = 0; i < 10; i++) ((await throttle.reserve('token-a', '203.0.113.2')) as Attempt).release();
  for (let i = 0; i < 3; i++) ((await throttle.reserve('token-a', '203.0.113.2')) as Attempt).failed();
  expect(isThrottled(await throttle.reserve('token-a', '203.0.113.2'))).toBe(true);
});

test('failures from one address never throttle the same token from another', async () => {
  const throttle = createAuthThrottle(limits);
  for (let i = 0; i < 3; i++) ((await throttle.reserve('token-a', '203.0.113.3')) as Attempt).failed();
  expect(isThrottled(await throttle.reserve('token-a', '203.0.113.3'))).toBe(true);
  expect(isThrottled(await throttle.reserve('token-a', '198.51.100.3'))).toBe(false);
});

test('an address over its limit refuses ids that failed from it and opaque tokens; a new id gets a check', async () => {
  const throttle = createAuthThrottle(limits);
  for (let i = 0; i < 5; i++) ((await throttle.reserve(`token-${i}`, '203.0.113.4')) as Attempt).failed();
  expect(isThrottled(await throttle.reserve('token-0', '203.0.113.4'))).toBe(true);
  expect(isThrottled(await throttle.reserve(OPAQUE, '203.0.113.4'))).toBe(true);
  const fresh = await throttle.reserve('token-new', '203.0.113.4');
  expect(isThrottled(fresh)).toBe(false);
  (fresh as Attempt).failed();
  expect(isThrottled(await throttle.reserve('token-new', '203.0.113.4'))).toBe(true);
});

test('a credential remembered as good is known until forgotten', () => {
  const throttle = createAuthThrottle(limits);
  expect(throttle.isKnownGood('digest')).toBe(false);
  throttle.rememberGood('digest');
  expect(throttle.isKnownGood('digest')).toBe(true);
  throttle.forgetGood('digest');
  expect(throttle.isKnownGood('digest')).toBe(false);
});
