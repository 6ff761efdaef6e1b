import { createHmac } from 'node:crypto';

/** Standard Webhooks 1.0 (standardwebhooks.com), symmetric scheme `v1`: HMAC-SHA256 with a `whsec_` secret. */
export const STANDARD_WEBHOOKS_SCHEME = 'v1';
export const STANDARD_WEBHOOKS_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * The endpoint's secret: derived from the service's seed, the platform and the endpoint URL, so it
 * is never stored (nothing to leak at rest) and a new endpoint gets a new secret.
 */
export function standardWebhooksSecret(seed: Buffer, platformId: string, url: string): string {
  const key = createHmac('sha256', seed).update(`standard-webhooks v1\0${platformId}\0${url}`).digest();
  return `whsec_${key.toString('base64')}`;
}

/** The three headers of one attempt: `webhook-id` is the delivery id (the same on every retry). */
export function standardWebhooksHeaders(
  secret: string,
  id: string,
  sentAt: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000).toString();
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `${STANDARD_WEBHOOKS_SCHEME},${signature}`,
  };
}
