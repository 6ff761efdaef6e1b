import { ConfigError } from '../../../../lib/config';
import { createConfiguredRateSource, readRateSourceConfig } from './rate-source-config';

test('the embedded table is the default; the ECB feed is chosen by RATE_SOURCE=ecb', () => {
  expect(readRateSourceConfig({})).toMatchObject({
    RATE_SOURCE: 'embedded',
    RATE_REFRESH_MS: 3_600_000,
    RATE_MAX_AGE_MS: 518_400_000,
    RATE_FETCH_TIMEOUT_MS: 5_000,
  });
  expect(readRateSourceConfig({ RATE_SOURCE: 'ecb', ECB_RATES_URL: 'http://127.0.0.1:9/rates.xml' })).toMatchObject({
    RATE_SOURCE: 'ecb',
    ECB_RATES_URL: 'http://127.0.0.1:9/rates.xml',
  });
});

test('the default source answers the sandbox table without any network', async () => {
  await expect(createConfiguredRateSource({}, () => new Date()).rate('USD', 'MXN')).resolves.toBe(17.25);
});

test.each([
  [{ RATE_SOURCE: 'fixer' }, /RATE_SOURCE must be one of embedded, ecb/],
  [{ ECB_RATES_URL: 'ftp://example.org/rates.xml' }, /ECB_RATES_URL must use https: or http:/],
  [{ RATE_MAX_AGE_MS: '10' }, /RATE_MAX_AGE_MS must be between/],
])('a bad setting stops the start: %j', (env, message) => {
  expect(() => readRateSourceConfig(env)).toThrow(ConfigError);
  expect(() => readRateSourceConfig(env)).toThrow(message);
});
