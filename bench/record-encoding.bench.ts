import { Struct } from '../gen/google/protobuf/struct';
import {
  PaymentDestination_Type,
  PaymentSource_Type,
  Quote,
  Quote_Status,
} from '../gen/quotes_transactions/v1/payment_records';
import { quoteJson } from '../lib/contract/payment-record-json';

/**
 * What a quote costs to carry between the gateway and quotes-transactions: as the typed Quote
 * message (today) and as the google.protobuf.Struct of its REST JSON (how it crossed before the
 * contracts were typed). Each round is what one call does: the service encodes, the gateway
 * decodes and renders the REST JSON. Same record, same run.
 */
const SAMPLE: Quote = Quote.fromPartial({
  id: 'Quote:019542f5-b3e7-1d02-0000-000000000006',
  status: Quote_Status.PENDING,
  createdAt: '2026-11-25T10:00:00.000Z',
  expiresAt: '2026-11-25T10:05:00.000Z',
  source: {
    sourceType: PaymentSource_Type.ACCOUNT,
    accountId: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002',
    currency: 'USD',
  },
  destination: {
    destinationType: PaymentDestination_Type.ACCOUNT,
    accountId: 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000003',
    currency: 'MXN',
  },
  sendingCurrency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  receivingCurrency: { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
  totalSendingAmount: 10_000,
  totalReceivingAmount: 172_327,
  exchangeRate: 17.25,
  feesIncluded: 10,
  transactionId: 'Transaction:019542f5-b3e7-1d02-0000-000000000005',
});

function rounds(n: number, round: () => unknown): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) round();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export function runRecordEncodingBenchmark(n = 50_000) {
  const typed = () => quoteJson(Quote.decode(Quote.encode(SAMPLE).finish()));
  const json = quoteJson(SAMPLE);
  const struct = () => Struct.unwrap(Struct.decode(Struct.encode(Struct.wrap(json)).finish()));
  rounds(n / 5, typed); // warm-up: V8 compiles both paths before either is timed
  rounds(n / 5, struct);
  const typedMs = rounds(n, typed);
  const structMs = rounds(n, struct);
  return {
    rounds: n,
    typedMicrosPerQuote: Number(((typedMs * 1000) / n).toFixed(2)),
    structMicrosPerQuote: Number(((structMs * 1000) / n).toFixed(2)),
    bytes: { typed: Quote.encode(SAMPLE).finish().length, struct: Struct.encode(Struct.wrap(json)).finish().length },
    structToTyped: Number((structMs / typedMs).toFixed(2)),
  };
}
