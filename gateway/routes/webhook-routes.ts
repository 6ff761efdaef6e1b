import { type Request, type Response } from 'express';
import type { WebhookDelivery } from '../../gen/notifications/v1/webhooks';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { listJson, RestRequestReader, withoutAbsent } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** A delivery of the log, absent members omitted. */
export function toWebhookDeliveryJson(d: WebhookDelivery) {
  return withoutAbsent({
    id: d.id,
    type: d.type,
    status: d.status,
    attemptCount: d.attemptCount,
    maxAttempts: d.maxAttempts,
    createdAt: d.createdAt,
    nextAttemptAt: d.nextAttemptAt || undefined,
    deliveredAt: d.deliveredAt || undefined,
    data: d.dataJson ? JSON.parse(d.dataJson) : undefined,
    attempts: d.attempts.map((a) =>
      withoutAbsent({
        attempt: a.attempt,
        attemptedAt: a.attemptedAt,
        url: a.url || undefined,
        statusCode: a.statusCode,
        error: a.error || undefined,
        durationMs: a.durationMs,
        outcome: a.outcome,
      })
    ),
  });
}

/**
 * The sandbox test webhook (the reference's path and answer), and what the reference leaves to us:
 * the public key webhooks are verified with, and the read-only delivery log.
 */
export function webhookRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();
  // Newer SDK releases call POST /webhooks/test: the same operation as the reference's sandbox path.
  const sendTestWebhook = async (_req: Request, res: Response) => {
    const sent = await peers.webhooks.sendTestWebhook({}, callContext(res));
    res.status(200).json({ url: sent.url, response_status: sent.responseStatus, duration_ms: sent.durationMs });
  };
  routes.on('sendTestWebhook', sendTestWebhook);
  routes.on('sendTestWebhookUnprefixed', sendTestWebhook);
  routes.on('getWebhookSigningSecret', async (_req, res) => {
    const found = await peers.webhooks.getWebhookSigningSecret({}, callContext(res));
    res.status(200).json({
      scheme: found.scheme,
      secret: found.secret,
      url: found.url,
      headers: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    });
  });
  routes.on('getWebhookPublicKey', async (_req, res) => {
    const key = await peers.webhooks.getWebhookPublicKey({}, callContext(res));
    res.status(200).json({
      algorithm: key.algorithm,
      signatureHeader: key.signatureHeader,
      publicKeyPem: key.publicKeyPem,
      publicKeyHex: key.publicKeyHex,
    });
  });
  routes.on('listWebhookDeliveries', async (req, res) => {
    const read = new RestRequestReader(req);
    const query = {
      limit: read.limit(),
      cursor: read.query('cursor') ?? '',
      status: read.query('status') ?? '',
      type: read.query('type') ?? '',
    };
    read.done();
    const page = await peers.webhooks.listWebhookDeliveries(query, callContext(res));
    res.status(200).json(
      listJson({ ...page, nextCursor: page.nextCursor || undefined }, page.deliveries, toWebhookDeliveryJson),
    );
  });
  routes.on('resendWebhookDelivery', async (req, res) => {
    const read = new RestRequestReader(req);
    const id = read.pathId('webhookId', 'Webhook');
    read.done();
    const { delivery } = await peers.webhooks.resendWebhookDelivery({ id }, callContext(res));
    res.status(200).json(toWebhookDeliveryJson(delivery!));
  });
  routes.on('getWebhookDelivery', async (req, res) => {
    const read = new RestRequestReader(req);
    const id = read.pathId('webhookId', 'Webhook');
    read.done();
    const { delivery } = await peers.webhooks.getWebhookDelivery({ id }, callContext(res));
    res.status(200).json(toWebhookDeliveryJson(delivery!));
  });
  return routes;
}
