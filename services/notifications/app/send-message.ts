import { newId } from '../../../lib/ids';
import { DuplicateKeyError, type DocumentStore } from '../../../lib/store/document-store';
import { validateOutgoingMessage } from '../domain/outgoing-message';
import type { MessageDelivery, SentMessage } from '../adapters/message-delivery';

type DeliveryDoc = { _id: string; messageId: string; sentAt: string };

/** Sends once per idempotency key: the key is claimed in the same write that records the send. */
export function createSendMessage(deps: { store: DocumentStore; delivery: MessageDelivery; now?: () => Date }) {
  const deliveries = deps.store.collection<DeliveryDoc>('deliveries');
  const now = deps.now ?? (() => new Date());
  return async function sendMessage(input: Parameters<typeof validateOutgoingMessage>[0]): Promise<string> {
    const message = validateOutgoingMessage(input);
    const sent: SentMessage = { ...message, messageId: newId('Message'), sentAt: now().toISOString() };
    try {
      await deliveries.insertOne({ _id: message.idempotencyKey, messageId: sent.messageId, sentAt: sent.sentAt });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const first = await deliveries.findOne({ _id: message.idempotencyKey });
      return first!.messageId;
    }
    try {
      await deps.delivery.deliver(sent);
    } catch (err) {
      await deliveries.deleteOne({ _id: message.idempotencyKey }); // release the key so a retry can send
      throw err;
    }
    return sent.messageId;
  };
}
