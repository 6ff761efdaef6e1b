import type { CreateTransferOutRequest } from '../../../../gen/quotes_transactions/v1/quotes';
import { AppError } from '../../../../lib/errors';
import { isMinorAmount, MAX_AMOUNT } from '../../shared/domain/money';
import { MissingMembers } from './quote-request';

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

/** TransferInRequest or TransferOutRequest as its typed message (the shape is the gateway's contract's). */
export type TransferRequestMessage = Omit<CreateTransferOutRequest, 'idempotencyKey'>;

/**
 * TransferInRequest (external → internal) or TransferOutRequest (internal → external): the amount is a positive
 * integer.
 */
export function parseTransferRequest(direction: 'IN' | 'OUT', message: TransferRequestMessage): TransferRequest {
  const m = new MissingMembers();
  const sourceId = m.need(message.source?.accountId, 'source.accountId');
  const destinationId = m.need(message.destination?.accountId, 'destination.accountId');
  const amount = m.need(message.amount, 'amount');
  m.done(`Invalid transfer-${direction.toLowerCase()} request`);
  if (!isMinorAmount(amount)) {
    throw new AppError('INVALID_AMOUNT', `amount must be an integer between 1 and ${MAX_AMOUNT} (minor units)`);
  }
  const out = direction === 'OUT'
    ? {
      paymentRail: message.destination?.paymentRail,
      remittanceInformation: message.remittanceInformation,
      purposeOfPayment: message.purposeOfPayment,
    }
    : {};
  return {
    direction,
    internalAccountId: direction === 'IN' ? destinationId! : sourceId!,
    externalAccountId: direction === 'IN' ? sourceId! : destinationId!,
    amount,
    ...out,
  };
}
