import { ConfigError, readConfig, setting, whyKeysAreRequired, type ConfigOf } from '../../lib/config';
import { DEFAULT_RETRY_POLICY } from './domain/retry-schedule';

const HOUR = 3_600_000;

/** Environment of webhook delivery; every variable is optional. */
export const WEBHOOK_SETTINGS = {
  /** P-256 private key, PEM or 32 bytes of hex; generated at start when unset (sandbox only). */
  WEBHOOK_SIGNING_PRIVATE_KEY: setting.optionalString(),
  /** Delay cap after the first failed attempt; doubles per failure (full jitter) @default 30000 */
  WEBHOOK_RETRY_BASE_MS: setting.int(DEFAULT_RETRY_POLICY.baseDelayMs, 1, 24 * HOUR),
  /** Largest delay between two attempts (Grid: 30 minutes) @default 1800000 */
  WEBHOOK_RETRY_MAX_DELAY_MS: setting.int(DEFAULT_RETRY_POLICY.maxDelayMs, 1, 48 * HOUR),
  /**
   * How long after it was recorded a delivery is still retried before it is given up, FAILED (Grid: 7 days) @default
   * 604800000
   */
  WEBHOOK_RETRY_WINDOW_MS: setting.int(DEFAULT_RETRY_POLICY.retryWindowMs, 1, 30 * 24 * HOUR),
  /** Attempts before a delivery is given up (FAILED) even within the retry window @default 1000 */
  WEBHOOK_MAX_ATTEMPTS: setting.int(DEFAULT_RETRY_POLICY.maxAttempts, 1, 10_000),
  /** How long one attempt waits for the receiver */
  WEBHOOK_TIMEOUT_MS: setting.int(10_000, 100, 60_000),
  /** How often the delivery worker looks for due deliveries */
  WEBHOOK_POLL_INTERVAL_MS: setting.int(1_000, 10, 60_000),
  /** Attempts in flight per process; 0 runs no worker here (another replica delivers). */
  WEBHOOK_DELIVERY_CONCURRENCY: setting.int(4, 0, 64),
  /**
   * How long a platform's webhook endpoint is remembered (0: read at every attempt, so a changed endpoint is used by
   * the very next delivery; concurrent reads are shared)
   */
  WEBHOOK_ENDPOINT_CACHE_MS: setting.int(0, 0, 24 * HOUR),
  /**
   * The sandbox: endpoints may be plain http and on this machine or a private network. Off: https only, and no
   * loopback, private, link-local or metadata address, checked at every connection @default true with
   * GRID_MODE=sandbox, false with GRID_MODE=production (which refuses true)
   */
  WEBHOOK_ALLOW_LOCAL_ENDPOINTS: setting.sandboxSwitch(),
  /**
   * How long delivery records (GET /webhooks/deliveries) are kept after they were recorded; ended ones older than this
   * are purged, pending ones never.
   */
  WEBHOOK_LOG_RETENTION_DAYS: setting.int(30, 1, 3650),
  /** How often the purge of delivery records past their retention runs */
  WEBHOOK_LOG_PURGE_INTERVAL_MS: setting.int(600_000, 10, 24 * HOUR),
};

export type WebhookSettings = ConfigOf<typeof WEBHOOK_SETTINGS>;

export function readWebhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  const settings = readConfig(WEBHOOK_SETTINGS, env);
  const why = whyKeysAreRequired(env);
  // Platforms pin the public key: one made per process would change at every restart and differ between replicas.
  if (why && !settings.WEBHOOK_SIGNING_PRIVATE_KEY) {
    throw new ConfigError('WEBHOOK_SIGNING_PRIVATE_KEY', `is required ${why} (PEM or 32 bytes of hex)`);
  }
  return settings;
}
