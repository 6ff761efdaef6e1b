import { readConfig, setting } from '../../../../lib/config';
import { createEcbRateSource, ECB_DAILY_RATES_URL } from './ecb-rate-source';
import { createSandboxRateSource, type RateSource } from './rate-source';

/** Which rate source quotes, lookups and the rate listing use (docs/exchange-rates.md). */
export function readRateSourceConfig(env: NodeJS.ProcessEnv) {
  return readConfig({
    /** `embedded`: the fixed sandbox table (the default); `ecb`: the ECB's daily reference rates */
    RATE_SOURCE: setting.oneOf(['embedded', 'ecb'] as const, 'embedded'),
    /**
     * Where the ECB's eurofxref-daily.xml is fetched from (with RATE_SOURCE=ecb) @default
     * https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml
     */
    ECB_RATES_URL: setting.optionalUrl('https:', 'http:'),
    /** How often the ECB document is fetched again */
    RATE_REFRESH_MS: setting.int(3_600_000, 1_000, 86_400_000),
    /**
     * Rates whose reference date began longer ago than this are refused (503 UNAVAILABLE); 6 days covers weekends and
     * the ECB's holidays
     */
    RATE_MAX_AGE_MS: setting.int(518_400_000, 60_000, 2_592_000_000),
    /** How long one fetch of the document may take */
    RATE_FETCH_TIMEOUT_MS: setting.int(5_000, 100, 60_000),
  }, env);
}

export function createConfiguredRateSource(env: NodeJS.ProcessEnv, clock: () => Date): RateSource {
  const config = readRateSourceConfig(env);
  if (config.RATE_SOURCE === 'embedded') return createSandboxRateSource();
  return createEcbRateSource({
    url: config.ECB_RATES_URL ?? ECB_DAILY_RATES_URL,
    refreshMs: config.RATE_REFRESH_MS,
    maxAgeMs: config.RATE_MAX_AGE_MS,
    timeoutMs: config.RATE_FETCH_TIMEOUT_MS,
    clock,
  });
}
