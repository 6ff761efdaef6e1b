import { type Request, type Response } from 'express';
import type { WebhookDelivery } from '../../gen/notifications/v1/webhooks';
import { contractJson } from '../../lib/contract/contract-json';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import {
  WebhookDelivery as WebhookDeliverySchema,
  WebhookPublicKey,
  WebhookSigningSecret,
} from '../contract/webhook-contract';
import { callContext } from '../http/call-context';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** A delivery of the log. */
export function toWebhookDeliveryJson(d: WebhookDelivery) {
  return contractJson(WebhookDeliverySchema, {
    ...d,
    // The message's plain strings are empty where REST leaves the time, URL or error out.
    nextAttemptAt: d.nextAttemptAt || undefined,
    deliveredAt: d.deliveredAt || undefined,
    attempts: d.attempts.map((a) => ({ ...a, url: a.url || undefined, error: a.error || undefined })),
    data: d.dataJson ? JSON.parse(d.dataJson) : undefined, // the event's data, carried as JSON text
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
    // The headers are those of the Standard Webhooks scheme, the same for every endpoint.
    const headers = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
    res.status(200).json(contractJson(WebhookSigningSecret, { ...found, headers }));
  });
  routes.on('getWebhookPublicKey', async (_req, res) => {
    const key = await peers.webhooks.getWebhookPublicKey({}, callContext(res));
    res.status(200).json(contractJson(WebhookPublicKey, key));
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
