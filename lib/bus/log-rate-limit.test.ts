import { createLogRateLimit } from './log-rate-limit';

test('one line per message per window; the next one written counts those left out', () => {
  let t = 0;
  const limit = createLogRateLimit(10_000, () => t);
  expect(limit.admit('connect ECONNREFUSED')).toEqual({ write: true, suppressed: 0 });
  for (let i = 0; i < 49; i++) {
    t += 200;
    expect(limit.admit('connect ECONNREFUSED').write).toBe(false);
  }
  expect(limit.admit('another message').write).toBe(true);
  t = 10_000;
  expect(limit.admit('connect ECONNREFUSED')).toEqual({ write: true, suppressed: 49 });
});
