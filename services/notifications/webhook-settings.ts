import { readConfig, setting, type ConfigOf } from '../../lib/config';
import { DEFAULT_RETRY_POLICY } from './domain/retry-schedule';

const HOUR = 3_600_000;

/** Environment of webhook delivery; every variable is optional. */
export const WEBHOOK_SETTINGS = {
  /** P-256 private key, PEM or 32 bytes of hex; generated at start when unset (sandbox only). */
  WEBHOOK_SIGNING_PRIVATE_KEY: setting.optionalString(),
  /** Delay cap after the first failed attempt; doubles per failure (full jitter) @default 60000 */
  WEBHOOK_RETRY_BASE_MS: setting.int(DEFAULT_RETRY_POLICY.baseDelayMs, 1, 24 * HOUR),
  /** Largest delay between two attempts @default 14400000 */
  WEBHOOK_RETRY_MAX_DELAY_MS: setting.int(DEFAULT_RETRY_POLICY.maxDelayMs, 1, 48 * HOUR),
  /** Attempts before a delivery is given up (FAILED) @default 14 */
  WEBHOOK_MAX_ATTEMPTS: setting.int(DEFAULT_RETRY_POLICY.maxAttempts, 1, 100),
  /** How long one attempt waits for the receiver */
  WEBHOOK_TIMEOUT_MS: setting.int(10_000, 100, 60_000),
  /** How often the delivery worker looks for due deliveries */
  WEBHOOK_POLL_INTERVAL_MS: setting.int(1_000, 10, 60_000),
  /** Attempts in flight per process; 0 runs no worker here (another replica delivers). */
  WEBHOOK_DELIVERY_CONCURRENCY: setting.int(4, 0, 64),
  /** How long a platform's webhook endpoint is remembered between configuration-changed events (0: asked every time). */
  WEBHOOK_ENDPOINT_CACHE_MS: setting.int(60_000, 0, 24 * HOUR),
  /** How long the delivery log (GET /webhooks/deliveries) keeps deliveries that ended. */
  WEBHOOK_LOG_RETENTION_DAYS: setting.int(30, 1, 3650),
};

export type WebhookSettings = ConfigOf<typeof WEBHOOK_SETTINGS>;

export function readWebhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  return readConfig(WEBHOOK_SETTINGS, env);
}
