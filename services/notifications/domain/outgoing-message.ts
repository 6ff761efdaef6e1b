import { AppError, type FieldError } from '../../../lib/errors';

export type Channel = 'EMAIL' | 'SMS';

export interface OutgoingMessage {
  channel: Channel;
  to: string;
  subject: string;
  body: string;
  idempotencyKey: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{6,14}$/;

export function validateOutgoingMessage(
  input: { channel: string; to: string; subject: string; body: string; idempotencyKey: string },
): OutgoingMessage {
  const errors: FieldError[] = [];
  if (input.channel !== 'EMAIL' && input.channel !== 'SMS') {
    errors.push({ field: 'channel', constraint: { enum: ['EMAIL', 'SMS'] } });
  }
  if (input.channel === 'EMAIL' && !EMAIL.test(input.to)) errors.push({ field: 'to', constraint: { format: 'email' } });
  if (input.channel === 'SMS' && !E164.test(input.to)) errors.push({ field: 'to', constraint: { format: 'e.164' } });
  if (!input.body) errors.push({ field: 'body', constraint: { minLength: 1 } });
  if (!input.idempotencyKey) errors.push({ field: 'idempotencyKey', constraint: { minLength: 1 } });
  if (errors.length) throw AppError.invalidInput('invalid message', errors);
  return { ...input, channel: input.channel as Channel };
}
