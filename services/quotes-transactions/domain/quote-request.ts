import { AppError } from '../../../lib/errors';
import { BodyReader } from './body-reader';
import type { PlatformFeeOverride } from './fees';
import { UMA_ADDRESS_PATTERN } from './lookup-request';
import { isMinorAmount, MAX_AMOUNT } from './money';
import type { LockedSide } from './pricing';

import { PAYMENT_RAILS, PURPOSES_OF_PAYMENT } from '../../../lib/contract/payment-vocabulary';

export { PAYMENT_RAILS, PURPOSES_OF_PAYMENT };

export type QuoteSourceRequest =
  | { sourceType: 'ACCOUNT'; accountId: string; customerId?: string }
  | { sourceType: 'REALTIME_FUNDING'; currency: string; customerId?: string; cryptoNetwork?: string };

export type QuoteDestinationRequest =
  | { destinationType: 'ACCOUNT'; accountId: string; paymentRail?: string }
  | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency?: string };

export interface QuoteRequest {
  source: QuoteSourceRequest;
  destination: QuoteDestinationRequest;
  lockedSide: LockedSide;
  lockedAmount: number;
  lookupId?: string;
  immediatelyExecute: boolean;
  description?: string;
  remittanceInformation?: string;
  purposeOfPayment?: string;
  platformFeeOverride?: PlatformFeeOverride;
  senderCustomerInfo?: Record<string, unknown>;
}

function readSource(r: BodyReader): QuoteSourceRequest | undefined {
  const type = r.object('source', true) && r.string('source.sourceType', { required: true, enum: ['ACCOUNT', 'REALTIME_FUNDING'] });
  const customerId = r.id('source.customerId', ['Customer'], false);
  if (type === 'ACCOUNT') {
    const accountId = r.id('source.accountId', ['InternalAccount', 'ExternalAccount']);
    return accountId ? { sourceType: 'ACCOUNT', accountId, customerId } : undefined;
  }
  if (type === 'REALTIME_FUNDING') {
    const currency = r.string('source.currency', { required: true, maxLength: 10 });
    const cryptoNetwork = r.string('source.cryptoNetwork', { maxLength: 20 });
    return currency ? { sourceType: 'REALTIME_FUNDING', currency, customerId, cryptoNetwork } : undefined;
  }
  return undefined;
}

function readDestination(r: BodyReader): QuoteDestinationRequest | undefined {
  const type = r.object('destination', true) && r.string('destination.destinationType', { required: true, enum: ['ACCOUNT', 'UMA_ADDRESS'] });
  if (type === 'ACCOUNT') {
    const accountId = r.id('destination.accountId', ['ExternalAccount', 'InternalAccount']);
    const paymentRail = r.string('destination.paymentRail', { enum: PAYMENT_RAILS });
    return accountId ? { destinationType: 'ACCOUNT', accountId, paymentRail } : undefined;
  }
  if (type === 'UMA_ADDRESS') {
    const umaAddress = r.string('destination.umaAddress', { required: true, maxLength: 255, pattern: UMA_ADDRESS_PATTERN });
    const currency = r.string('destination.currency', { maxLength: 10 });
    return umaAddress ? { destinationType: 'UMA_ADDRESS', umaAddress, currency } : undefined;
  }
  return undefined;
}

function readFeeOverride(r: BodyReader): PlatformFeeOverride | undefined {
  if (!r.object('platformFeeOverride')) return undefined;
  r.object('platformFeeOverride.platformFixedFee', true);
  const amount = r.integer('platformFeeOverride.platformFixedFee.amount', { required: true, max: MAX_AMOUNT });
  const currency = r.string('platformFeeOverride.platformFixedFee.currency', { required: true, maxLength: 10 });
  const bps = r.integer('platformFeeOverride.platformVariableFeeBps', { required: true, max: 10_000 });
  return amount !== undefined && currency && bps !== undefined ? { fixedFee: { amount, currency }, variableFeeBps: bps } : undefined;
}

/**
 * The REST QuoteRequest, validated member by member. Shape problems are INVALID_INPUT listing
 * every field; a well-formed body whose amount is not a positive integer is INVALID_AMOUNT.
 */
export function parseQuoteRequest(body: unknown): QuoteRequest {
  const r = BodyReader.of(body);
  const source = readSource(r);
  const destination = readDestination(r);
  const lockedSide = r.string('lockedCurrencySide', { required: true, enum: ['SENDING', 'RECEIVING'] }) as LockedSide | undefined;
  const lockedAmount = r.number('lockedCurrencyAmount', true);
  const request = {
    lookupId: r.id('lookupId', ['Lookup'], false),
    immediatelyExecute: r.boolean('immediatelyExecute') ?? false,
    description: r.string('description', { maxLength: 1000 }),
    remittanceInformation: r.string('remittanceInformation', { maxLength: 80 }),
    purposeOfPayment: r.string('purposeOfPayment', { enum: PURPOSES_OF_PAYMENT }),
    platformFeeOverride: readFeeOverride(r),
    senderCustomerInfo: r.object('senderCustomerInfo'),
  };
  if (destination?.destinationType === 'UMA_ADDRESS' && !request.lookupId) r.fail('lookupId', 'is required for UMA address destinations');
  r.done('Invalid quote request');
  if (!isMinorAmount(lockedAmount)) {
    throw new AppError('INVALID_AMOUNT', `lockedCurrencyAmount must be an integer between 1 and ${MAX_AMOUNT} (minor units)`);
  }
  return { source: source!, destination: destination!, lockedSide: lockedSide!, lockedAmount, ...request };
}
