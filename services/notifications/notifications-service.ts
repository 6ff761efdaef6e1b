import type { ServiceEnvironment, ServiceModule } from '../../lib/runtime/service-module';
import { createAccountsEndpointDirectory } from './adapters/accounts-endpoint-directory';
import { createHttpDelivery, createInspectableOutbox } from './adapters/message-delivery';
import { createSendMessage } from './app/send-message';
import { bindDeliveryService } from './grpc/delivery-handlers';
import { createWebhookNotifications } from './webhook-notifications';

export function createNotificationsService(environment: ServiceEnvironment): ServiceModule {
  const outbox = createInspectableOutbox();
  const endpoint = environment.env.MESSAGE_DELIVERY_URL?.trim();
  const delivery = endpoint ? createHttpDelivery(endpoint) : outbox;
  const sendMessage = createSendMessage({ store: environment.store, delivery });
  const webhooks = createWebhookNotifications(environment, createAccountsEndpointDirectory({
    getWebhookEndpoint: (request, ctx) => environment.peers.accounts.getWebhookEndpoint(request, ctx), // resolved per call: peers bind later
  }));
  return {
    name: 'notifications',
    eventsTopic: 'notifications.events.v1',
    bindings: [bindDeliveryService({ sendMessage, sentMessages: (to) => outbox.sent(to) }), webhooks.binding],
    start: () => webhooks.start(),
    stop: () => webhooks.stop(),
  };
}
