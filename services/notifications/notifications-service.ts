import { ConfigError, readRunMode } from '../../lib/config';
import type { ServiceEnvironment, ServiceModule } from '../../lib/runtime/service-module';
import { createAccountsEndpointDirectory } from './adapters/accounts-endpoint-directory';
import { createHttpDelivery, createInspectableOutbox } from './adapters/message-delivery';
import { createSendMessage } from './app/send-message';
import { createWebhookEndpointCache } from './app/webhook-endpoint-cache';
import { readWebhookSettings } from './webhook-settings';
import { bindDeliveryService } from './grpc/delivery-handlers';
import { createWebhookNotifications } from './webhook-notifications';

/** Where messages go; in production they must leave the process (kept in memory, nobody would get a code). */
export function messageDeliveryUrl(env: NodeJS.ProcessEnv): string | undefined {
  const endpoint = env.MESSAGE_DELIVERY_URL?.trim();
  if (!endpoint && readRunMode(env) === 'production') {
    throw new ConfigError(
      'MESSAGE_DELIVERY_URL',
      'is required with GRID_MODE=production: without it messages '
        + '(one-time and contact codes) are kept in memory and never delivered',
    );
  }
  return endpoint || undefined;
}

export function createNotificationsService(environment: ServiceEnvironment): ServiceModule {
  const outbox = createInspectableOutbox();
  const endpoint = messageDeliveryUrl(environment.env);
  const delivery = endpoint ? createHttpDelivery(endpoint) : outbox;
  const sendMessage = createSendMessage({ store: environment.store, delivery });
  const endpoints = createWebhookEndpointCache(
    createAccountsEndpointDirectory({
      // resolved per call: peers bind later
      getWebhookEndpoint: (request, ctx) => environment.peers.accounts.getWebhookEndpoint(request, ctx),
    }),
    { ttlMs: readWebhookSettings(environment.env).WEBHOOK_ENDPOINT_CACHE_MS },
  );
  const webhooks = createWebhookNotifications(environment, endpoints);
  return {
    name: 'notifications',
    eventsTopic: 'notifications.events.v1',
    bindings: [bindDeliveryService({ sendMessage, sentMessages: (to) => outbox.sent(to) }), webhooks.binding],
    start: () => webhooks.start(),
    stop: () => webhooks.stop(),
  };
}
