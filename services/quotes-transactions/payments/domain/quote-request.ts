import type { CreateQuoteRequest } from '../../../../gen/quotes_transactions/v1/quotes';
import { PAYMENT_RAILS, PURPOSES_OF_PAYMENT } from '../../../../lib/contract/payment-vocabulary';
import { AppError, type FieldError } from '../../../../lib/errors';
import type { PlatformFeeOverride } from './fees';
import { isMinorAmount, MAX_AMOUNT } from '../../shared/domain/money';
import type { LockedSide } from './pricing';

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

const LOCKED_SIDES: readonly LockedSide[] = ['SENDING', 'RECEIVING'];

/** The quote request message (the REST QuoteRequest, its shape checked by the gateway's contract). */
export type QuoteRequestMessage = Omit<CreateQuoteRequest, 'idempotencyKey'>;

/**
 * Collects the members a caller left out: the gateway's contract requires them, so only a caller
 * that skipped it meets this, and it hears INVALID_INPUT rather than a failure deeper down.
 */
export class MissingMembers {
  readonly errors: FieldError[] = [];

  need<T>(value: T | undefined | null, field: string): T | undefined {
    if (value === undefined || value === null || value === '') this.errors.push({ field, message: 'is required' });
    return value ?? undefined;
  }

  done(message: string): void {
    if (this.errors.length) throw AppError.invalidInput(message, this.errors);
  }
}

function source(m: MissingMembers, s: QuoteRequestMessage['source']): QuoteSourceRequest | undefined {
  if (!m.need(s, 'source')) return undefined;
  const type = m.need(s?.sourceType, 'source.sourceType');
  const customerId = s?.customerId;
  if (type === 'ACCOUNT') {
    const accountId = m.need(s?.accountId, 'source.accountId');
    return accountId ? { sourceType: 'ACCOUNT', accountId, customerId } : undefined;
  }
  if (type === 'REALTIME_FUNDING') {
    const currency = m.need(s?.currency, 'source.currency');
    return currency
      ? { sourceType: 'REALTIME_FUNDING', currency, customerId, cryptoNetwork: s?.cryptoNetwork }
      : undefined;
  }
  if (type) {
    m.errors.push({
      field: 'source.sourceType',
      message: 'must be one of ACCOUNT, REALTIME_FUNDING',
      constraint: { enum: ['ACCOUNT', 'REALTIME_FUNDING'] },
    });
  }
  return undefined;
}

function destination(m: MissingMembers, d: QuoteRequestMessage['destination']): QuoteDestinationRequest | undefined {
  if (!m.need(d, 'destination')) return undefined;
  const type = m.need(d?.destinationType, 'destination.destinationType');
  if (type === 'ACCOUNT') {
    const accountId = m.need(d?.accountId, 'destination.accountId');
    return accountId ? { destinationType: 'ACCOUNT', accountId, paymentRail: d?.paymentRail } : undefined;
  }
  if (type === 'UMA_ADDRESS') {
    const umaAddress = m.need(d?.umaAddress, 'destination.umaAddress');
    return umaAddress ? { destinationType: 'UMA_ADDRESS', umaAddress, currency: d?.currency } : undefined;
  }
  if (type) {
    m.errors.push({
      field: 'destination.destinationType',
      message: 'must be one of ACCOUNT, UMA_ADDRESS',
      constraint: { enum: ['ACCOUNT', 'UMA_ADDRESS'] },
    });
  }
  return undefined;
}

function feeOverride(o: QuoteRequestMessage['platformFeeOverride']): PlatformFeeOverride | undefined {
  const fixed = o?.platformFixedFee;
  if (!o || fixed?.amount === undefined || !fixed.currency || o.platformVariableFeeBps === undefined) return undefined;
  return { fixedFee: { amount: fixed.amount, currency: fixed.currency }, variableFeeBps: o.platformVariableFeeBps };
}

/**
 * The quote request's own rules over its typed message (the shape is the gateway's): an UMA
 * destination names its lookup, and the amount is a positive integer (INVALID_AMOUNT otherwise).
 */
export function parseQuoteRequest(message: QuoteRequestMessage): QuoteRequest {
  const m = new MissingMembers();
  const parsedSource = source(m, message.source);
  const parsedDestination = destination(m, message.destination);
  const lockedSide = m.need(message.lockedCurrencySide, 'lockedCurrencySide') as LockedSide | undefined;
  if (lockedSide && !LOCKED_SIDES.includes(lockedSide)) {
    m.errors.push({
      field: 'lockedCurrencySide',
      message: 'must be one of SENDING, RECEIVING',
      constraint: { enum: [...LOCKED_SIDES] },
    });
  }
  const lockedAmount = m.need(message.lockedCurrencyAmount, 'lockedCurrencyAmount');
  if (parsedDestination?.destinationType === 'UMA_ADDRESS' && !message.lookupId) {
    m.errors.push({ field: 'lookupId', message: 'is required for UMA address destinations' });
  }
  m.done('Invalid quote request');
  if (!isMinorAmount(lockedAmount)) {
    throw new AppError(
      'INVALID_AMOUNT',
      `lockedCurrencyAmount must be an integer between 1 and ${MAX_AMOUNT} (minor units)`,
    );
  }
  return {
    source: parsedSource!,
    destination: parsedDestination!,
    lockedSide: lockedSide!,
    lockedAmount,
    lookupId: message.lookupId,
    immediatelyExecute: message.immediatelyExecute ?? false,
    description: message.description,
    remittanceInformation: message.remittanceInformation,
    purposeOfPayment: message.purposeOfPayment,
    platformFeeOverride: feeOverride(message.platformFeeOverride),
    senderCustomerInfo: message.senderCustomerInfo,
  };
}
