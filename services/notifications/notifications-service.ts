import type { ServiceEnvironment, ServiceModule } from '../../lib/runtime/service-module';
import { createHttpDelivery, createInspectableOutbox } from './adapters/message-delivery';
import { createSendMessage } from './app/send-message';
import { bindDeliveryService } from './grpc/delivery-handlers';

export function createNotificationsService(environment: ServiceEnvironment): ServiceModule {
  const outbox = createInspectableOutbox();
  const endpoint = environment.env.MESSAGE_DELIVERY_URL?.trim();
  const delivery = endpoint ? createHttpDelivery(endpoint) : outbox;
  const sendMessage = createSendMessage({ store: environment.store, delivery });
  return {
    name: 'notifications',
    eventsTopic: 'notifications.events.v1',
    bindings: [bindDeliveryService({ sendMessage, sentMessages: (to) => outbox.sent(to) })],
  };
}
