import { propagation, ROOT_CONTEXT, SpanStatusCode } from '@opentelemetry/api';
import { inSpan, SpanKind } from '../../../lib/telemetry';
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

type Deliverable = Pick<WebhookNotification, 'id' | 'type' | 'dataJson' | 'platformId' | 'traceparent'>;

/** One attempt to send the webhook `id` to a platform's endpoint `url` at `sentAt`, with its exact `body`. */
export interface WebhookAttempt {
  platformId: string;
  url: string;
  id: string;
  sentAt: Date;
  body: string;
}

export interface DeliverWebhookDeps {
  directory: WebhookEndpointDirectory;
  sender: WebhookSender;
  sign: (body: string) => string;
  /** The Standard Webhooks headers of one attempt to `url` (signed with that endpoint's secret). */
  standardHeaders?: (attempt: WebhookAttempt) => Record<string, string>;
  timeoutMs: number;
  logger: Logger;
  clock?: () => Date;
}

/** One attempt: sign the envelope for this moment, POST it, and say how it went. */
export function createDeliverWebhook(deps: DeliverWebhookDeps) {
  const clock = deps.clock ?? (() => new Date());

  /** One attempt, as a CLIENT span in the trace of the event that caused the webhook. */
  function deliverTo(
    url: string,
    notification: Deliverable,
    attempt: number,
    timeoutMs = deps.timeoutMs,
  ): Promise<AttemptResult> {
    return inSpan('POST', {
      kind: SpanKind.CLIENT,
      parent: contextOf(notification.traceparent),
      attributes: attemptAttributes(url, notification, attempt),
    }, async (span) => {
      const result = await post(url, notification, attempt, timeoutMs);
      if (result.attempt.statusCode !== undefined) {
        span.setAttribute('http.response.status_code', result.attempt.statusCode);
      }
      if (result.attempt.outcome !== 'ACKNOWLEDGED') {
        span.setAttribute(
          'error.type',
          result.attempt.statusCode !== undefined ? String(result.attempt.statusCode) : 'unreachable',
        );
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      return result;
    });
  }

  async function post(
    url: string,
    notification: Deliverable,
    attempt: number,
    timeoutMs: number,
  ): Promise<AttemptResult> {
    const sentAt = clock();
    const body = webhookBody(notification, sentAt);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'grid-payments-webhooks/1',
      [WEBHOOK_SIGNATURE_HEADER]: deps.sign(body),
      ...deps.standardHeaders?.({ platformId: notification.platformId, url, id: notification.id, sentAt, body }),
    };
    const started = performance.now();
    const response = await deps.sender.post({ url, body, headers, timeoutMs });
    const base = {
      attempt,
      attemptedAt: sentAt.toISOString(),
      url,
      durationMs: Math.round(performance.now() - started),
    };
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

function contextOf(traceparent: string | undefined) {
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** HTTP client conventions; the URL's path and query stay out (they may carry the receiver's secrets). */
function attemptAttributes(url: string, notification: Deliverable, attempt: number): Record<string, string | number> {
  const attributes: Record<string, string | number> = {
    'http.request.method': 'POST',
    'webhook.id': notification.id,
    'webhook.type': notification.type,
    'webhook.attempt': attempt,
  };
  try {
    const parsed = new URL(url);
    attributes['server.address'] = parsed.hostname;
    attributes['url.scheme'] = parsed.protocol.replace(':', '');
    if (parsed.port) attributes['server.port'] = Number(parsed.port);
  } catch { /* a malformed URL: the attempt reports it */ }
  return attributes;
}
