import {
  WebhookServiceService,
  type WebhookDelivery as WebhookDeliveryMessage,
  type WebhookDeliveryAttempt_Outcome,
  type WebhookDelivery_Status,
} from '../../../gen/notifications/v1/webhooks';
import { requirePlatform } from '../../../lib/grpc/call-context';
import { bindService } from '../../../lib/grpc/service-binding';
import type { TestWebhookResult } from '../app/send-test-webhook';
import type { WebhookDeliveryLog } from '../app/webhook-delivery-log';
import type { WebhookDelivery } from '../domain/webhook-delivery';
import { STANDARD_WEBHOOKS_SCHEME } from '../domain/standard-webhooks';
import { WEBHOOK_SIGNATURE_ALGORITHM, WEBHOOK_SIGNATURE_HEADER } from '../domain/webhook-signature';

export interface WebhookUseCases {
  publicKey: { pem: string; hex: string };
  sendTestWebhook: (platformId: string) => Promise<TestWebhookResult>;
  deliveryLog: WebhookDeliveryLog;
  signingSecret: (platformId: string) => Promise<{ url: string; secret: string }>;
  resendWebhook: (platformId: string, id: string) => Promise<WebhookDelivery>;
}

export function deliveryMessage(d: WebhookDelivery): WebhookDeliveryMessage {
  return {
    id: d.id,
    type: d.type,
    status: d.status as WebhookDelivery_Status,
    attemptCount: d.attemptCount,
    maxAttempts: d.maxAttempts,
    createdAt: d.createdAt,
    nextAttemptAt: d.status === 'PENDING' ? new Date(d.dueAt).toISOString() : '',
    deliveredAt: d.deliveredAt ?? '',
    dataJson: d.dataJson,
    attempts: d.attempts.map((a) => ({
      attempt: a.attempt,
      attemptedAt: a.attemptedAt,
      url: a.url ?? '',
      statusCode: a.statusCode,
      error: a.error ?? '',
      durationMs: a.durationMs,
      outcome: a.outcome as WebhookDeliveryAttempt_Outcome,
    })),
  };
}

/** Decode, call one use case with the caller's platform, encode. */
export function bindWebhookService(uc: WebhookUseCases) {
  return bindService(WebhookServiceService, {
    async getWebhookPublicKey() {
      return {
        algorithm: WEBHOOK_SIGNATURE_ALGORITHM,
        signatureHeader: WEBHOOK_SIGNATURE_HEADER,
        publicKeyPem: uc.publicKey.pem,
        publicKeyHex: uc.publicKey.hex,
      };
    },
    async sendTestWebhook(_req, ctx) {
      return { ...(await uc.sendTestWebhook(requirePlatform(ctx))), responseBody: '' };
    },
    async listWebhookDeliveries(req, ctx) {
      const page = await uc.deliveryLog.list(requirePlatform(ctx), req);
      return {
        deliveries: page.items.map(deliveryMessage),
        hasMore: page.hasMore,
        nextCursor: page.nextCursor ?? '',
        totalCount: page.totalCount,
      };
    },
    async getWebhookSigningSecret(_req, ctx) {
      return { scheme: STANDARD_WEBHOOKS_SCHEME, ...(await uc.signingSecret(requirePlatform(ctx))) };
    },
    async resendWebhookDelivery(req, ctx) {
      return { delivery: deliveryMessage(await uc.resendWebhook(requirePlatform(ctx), req.id)) };
    },
    async getWebhookDelivery(req, ctx) {
      return { delivery: deliveryMessage(await uc.deliveryLog.get(requirePlatform(ctx), req.id)) };
    },
  });
}
