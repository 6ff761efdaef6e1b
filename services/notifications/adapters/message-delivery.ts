import type { OutgoingMessage } from '../domain/outgoing-message';

export interface SentMessage extends OutgoingMessage {
  messageId: string;
  sentAt: string;
}

/** The delivery port: mail and SMS providers implement it. */
export interface MessageDelivery {
  deliver(message: SentMessage): Promise<void>;
}

/**
 * The embedded default: nothing leaves the machine; messages are kept (bounded) so that a
 * developer or a test can read the code that would have been sent.
 */
export function createInspectableOutbox(limit = 1000): MessageDelivery & { sent(to?: string): SentMessage[] } {
  const messages: SentMessage[] = [];
  return {
    async deliver(message) {
      messages.push(message);
      if (messages.length > limit) messages.shift();
    },
    sent: (to) => messages.filter((m) => to === undefined || to === '' || m.to === to),
  };
}

/** A provider reached over HTTP: the message is POSTed as JSON to the configured endpoint. */
export function createHttpDelivery(endpoint: string, fetchImpl: typeof fetch = fetch): MessageDelivery {
  return {
    async deliver(message) {
      const response = await fetchImpl(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': message.idempotencyKey },
        body: JSON.stringify({
          channel: message.channel,
          to: message.to,
          subject: message.subject,
          body: message.body,
          id: message.messageId,
        }),
        signal: AbortSignal.timeout(10000),
      });
      if (!response.ok) throw new Error(`delivery provider answered ${response.status}`);
    },
  };
}
