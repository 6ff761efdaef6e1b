import { DeliveryServiceService } from '../../../gen/notifications/v1/delivery';
import { bindService } from '../../../lib/grpc/service-binding';
import type { SentMessage } from '../adapters/message-delivery';

export function bindDeliveryService(deps: {
  sendMessage: (
    input: { channel: string; to: string; subject: string; body: string; idempotencyKey: string },
  ) => Promise<string>;
  sentMessages: (to: string) => SentMessage[];
}) {
  return bindService(DeliveryServiceService, {
    async sendMessage(request) {
      return { messageId: await deps.sendMessage(request) };
    },
    async listSentMessages(request) {
      return { messages: deps.sentMessages(request.to).map(({ idempotencyKey: _key, ...m }) => m) };
    },
  });
}
