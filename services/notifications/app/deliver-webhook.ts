import type { Logger } from '../../../lib/log';
import { isAcknowledged, noEndpointAttempt, type DeliveryAttempt } from '../domain/webhook-delivery';
import { webhookBody, type WebhookNotification } from '../domain/webhook-envelope';
import { WEBHOOK_SIGNATURE_HEADER } from '../domain/webhook-signature';
import type { WebhookEndpointDirectory } from './webhook-endpoint-directory';

export interface WebhookPost {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** The receiver's answer, or why there was none (timeout, refused connection, bad URL). */
export type WebhookResponse = { statusCode: number; body: string } | { error: string };

/** The transport port; adapters/ implements it over HTTP. Never rejects. */
export interface WebhookSender {
  post(request: WebhookPost): Promise<WebhookResponse>;
}

export interface AttemptResult {
  attempt: DeliveryAttempt;
  responseBody?: string;
}

/** No attempt was made: something of ours (the endpoint lookup) failed, not the receiver. */
export interface Postponed {
  postponed: string;
}

type Deliverable = Pick<WebhookNotification, 'id' | 'type' | 'dataJson' | 'platformId'>;

export interface DeliverWebhookDeps {
  directory: WebhookEndpointDirectory;
  sender: WebhookSender;
  sign: (body: string) => string;
  timeoutMs: number;
  logger: Logger;
  clock?: () => Date;
}

/** One attempt: sign the envelope for this moment, POST it, and say how it went. */
export function createDeliverWebhook(deps: DeliverWebhookDeps) {
  const clock = deps.clock ?? (() => new Date());

  async function deliverTo(url: string, notification: Deliverable, attempt: number, timeoutMs = deps.timeoutMs): Promise<AttemptResult> {
    const sentAt = clock();
    const body = webhookBody(notification, sentAt);
    const headers = { 'content-type': 'application/json', 'user-agent': 'grid-payments-webhooks/1', [WEBHOOK_SIGNATURE_HEADER]: deps.sign(body) };
    const started = performance.now();
    const response = await deps.sender.post({ url, body, headers, timeoutMs });
    const base = { attempt, attemptedAt: sentAt.toISOString(), url, durationMs: Math.round(performance.now() - started) };
    if ('error' in response) return { attempt: { ...base, error: response.error, outcome: 'UNREACHABLE' } };
    const outcome = isAcknowledged(response.statusCode) ? 'ACKNOWLEDGED' : 'REJECTED';
    return { attempt: { ...base, statusCode: response.statusCode, outcome }, responseBody: response.body };
  }

  /**
   * Reads the platform's endpoint at the time of the attempt, so a corrected URL takes effect on the
   * next retry. When the endpoint cannot be read, nothing is sent and no attempt is spent: an outage
   * of ours must not use up the receiver's retries.
   */
  async function deliver(notification: Deliverable, attempt: number): Promise<AttemptResult | Postponed> {
    let url: string | undefined;
    try {
      url = await deps.directory.endpointOf(notification.platformId);
    } catch (err) {
      deps.logger.warn('webhook endpoint could not be read; will retry', { webhookId: notification.id, err });
      return { postponed: 'webhook endpoint could not be read' };
    }
    if (!url) return { attempt: noEndpointAttempt(attempt, clock()) };
    return deliverTo(url, notification, attempt);
  }

  return { deliver, deliverTo };
}

export type DeliverWebhook = ReturnType<typeof createDeliverWebhook>;
