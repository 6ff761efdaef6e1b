import { AppError } from '../../../lib/errors';
import { BodyReader } from './body-reader';
import { isMinorAmount, MAX_AMOUNT } from './money';
import { PAYMENT_RAILS, PURPOSES_OF_PAYMENT } from './quote-request';

/** A same-currency transfer between an internal and an external account (deprecated endpoints). */
export interface TransferRequest {
  direction: 'IN' | 'OUT';
  internalAccountId: string;
  externalAccountId: string;
  amount: number;
  paymentRail?: string;
  remittanceInformation?: string;
  purposeOfPayment?: string;
}

/** TransferInRequest (external → internal) or TransferOutRequest (internal → external). */
export function parseTransferRequest(direction: 'IN' | 'OUT', body: unknown): TransferRequest {
  const r = BodyReader.of(body);
  r.object('source', true);
  r.object('destination', true);
  const sourceId = r.id('source.accountId', [direction === 'IN' ? 'ExternalAccount' : 'InternalAccount']);
  const destinationId = r.id('destination.accountId', [direction === 'IN' ? 'InternalAccount' : 'ExternalAccount']);
  const amount = r.number('amount', true);
  const out = direction === 'OUT'
    ? {
      paymentRail: r.string('destination.paymentRail', { enum: PAYMENT_RAILS }),
      remittanceInformation: r.string('remittanceInformation', { maxLength: 80 }),
      purposeOfPayment: r.string('purposeOfPayment', { enum: PURPOSES_OF_PAYMENT }),
    }
    : {};
  r.done(`Invalid transfer-${direction.toLowerCase()} request`);
  if (!isMinorAmount(amount)) throw new AppError('INVALID_AMOUNT', `amount must be an integer between 1 and ${MAX_AMOUNT} (minor units)`);
  return {
    direction,
    internalAccountId: direction === 'IN' ? destinationId! : sourceId!,
    externalAccountId: direction === 'IN' ? sourceId! : destinationId!,
    amount,
    ...out,
  };
}
