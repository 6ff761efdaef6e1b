import type {
  PaymentDestination,
  PaymentDestination_Type,
  PaymentSource,
  PaymentSource_Type,
} from '../../gen/quotes_transactions/v1/payment_records';
import type {
  FundInternalAccountRequest,
  SimulateSendRequest,
  SimulateUmaReceiveRequest,
} from '../../gen/quotes_transactions/v1/payments_sandbox';
import type {
  CreateQuoteRequest,
  CreateQuoteRequest_LockedCurrencySide,
  CreateTransferOutRequest,
  PlatformFeeOverride,
  TransferEnd,
} from '../../gen/quotes_transactions/v1/quotes';
import { RestBody } from './rest-body';

/* REST request bodies of quotes, transfers and the sandbox → their request messages. */

function source(b: RestBody): PaymentSource {
  return {
    sourceType: b.string<PaymentSource_Type>('sourceType'),
    accountId: b.string('accountId'),
    customerId: b.string('customerId'),
    currency: b.string('currency'),
    cryptoNetwork: b.string('cryptoNetwork'),
  };
}

function destination(b: RestBody): PaymentDestination {
  return {
    destinationType: b.string<PaymentDestination_Type>('destinationType'),
    accountId: b.string('accountId'),
    paymentRail: b.string('paymentRail'),
    umaAddress: b.string('umaAddress'),
    currency: b.string('currency'),
  };
}

function feeOverride(b: RestBody): PlatformFeeOverride {
  return {
    platformFixedFee: b.object(
      'platformFixedFee',
      (f) => ({ amount: f.integer('amount'), currency: f.string('currency') }),
    ),
    platformVariableFeeBps: b.integer('platformVariableFeeBps'),
  };
}

const transferEnd = (b: RestBody): TransferEnd => ({
  accountId: b.string('accountId'),
  paymentRail: b.string('paymentRail'),
});

export function createQuoteRequest(body: unknown, idempotencyKey?: string): CreateQuoteRequest {
  const b = RestBody.of(body);
  const request: CreateQuoteRequest = {
    idempotencyKey,
    source: b.object('source', source),
    destination: b.object('destination', destination),
    lockedCurrencySide: b.string<CreateQuoteRequest_LockedCurrencySide>('lockedCurrencySide'),
    lockedCurrencyAmount: b.integer('lockedCurrencyAmount'),
    lookupId: b.string('lookupId'),
    immediatelyExecute: b.boolean('immediatelyExecute'),
    description: b.string('description'),
    remittanceInformation: b.string('remittanceInformation'),
    purposeOfPayment: b.string('purposeOfPayment'),
    platformFeeOverride: b.object('platformFeeOverride', feeOverride),
    senderCustomerInfo: b.map('senderCustomerInfo'),
  };
  b.done('Invalid quote request');
  return request;
}

/** TransferInRequest and TransferOutRequest (the latter with its remittance members). */
export function createTransferRequest(body: unknown, idempotencyKey?: string): CreateTransferOutRequest {
  const b = RestBody.of(body);
  const request: CreateTransferOutRequest = {
    idempotencyKey,
    source: b.object('source', transferEnd),
    destination: b.object('destination', transferEnd),
    amount: b.integer('amount'),
    remittanceInformation: b.string('remittanceInformation'),
    purposeOfPayment: b.string('purposeOfPayment'),
  };
  b.done('Invalid transfer request');
  return request;
}

export function fundInternalAccountRequest(accountId: string, body: unknown): FundInternalAccountRequest {
  const b = RestBody.of(body);
  const request = { accountId, amount: b.integer('amount') };
  b.done('Invalid funding request');
  return request;
}

export function simulateSendRequest(body: unknown): SimulateSendRequest {
  const b = RestBody.of(body);
  const request = {
    quoteId: b.string('quoteId'),
    currencyCode: b.string('currencyCode'),
    currencyAmount: b.integer('currencyAmount'),
  };
  b.done('Invalid sandbox send request');
  return request;
}

export function simulateUmaReceiveRequest(body: unknown): SimulateUmaReceiveRequest {
  const b = RestBody.of(body);
  const request = {
    senderUmaAddress: b.string('senderUmaAddress'),
    receiverUmaAddress: b.string('receiverUmaAddress'),
    customerId: b.string('customerId'),
    receivingCurrencyCode: b.string('receivingCurrencyCode'),
    receivingCurrencyAmount: b.integer('receivingCurrencyAmount'),
  };
  b.done('Invalid sandbox receive request');
  return request;
}
