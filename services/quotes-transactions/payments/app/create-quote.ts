import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import type { NewEvent } from '../../../../lib/bus/outbox';
import type { RateSource } from '../../rates/adapters/rate-source';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import { platformFeeRule, serviceFeeRule } from '../domain/fees';
import { paymentReference, sandboxFundingInstructions } from '../domain/funding-instructions';
import { applicableLimits, assertWithinCurrencyBounds, assertWithinSingleTransactionLimits } from '../domain/limits';
import type { Payment } from '../domain/payment';
import { price } from '../domain/pricing';
import { parseQuoteRequest, type QuoteRequest, type QuoteRequestMessage } from '../domain/quote-request';
import { networkFeeCharge } from './network-fee';
import { requestHash } from '../domain/request-hash';
import { outcomeForAmount } from '../domain/sandbox-outcomes';
import type { ExecuteQuote } from './execute-quote';
import type { GetLookup } from '../../lookups/app/get-lookup';
import type { SignedLookups } from '../../lookups/app/signed-lookups';
import type { Caller, PaymentAccounts } from '../../shared/app/payment-accounts';
import { paymentEvents } from './payment-events';
import type { PaymentSettings, PaymentSettingsSource } from '../../shared/app/payment-settings';
import { IdempotencyKeyTaken, type PaymentStore } from './payment-store';
import { assertVerifiedIfRequired, assertWithinOffer, checkedLookup, offerFor } from './quote-checks';
import { partiesQuery, requireCurrency, resolveParties, type Parties, type PartiesCheck } from './quote-parties';
import { sameRequestOrConflict } from './idempotency';

export interface CreateQuoteDeps {
  accounts: PaymentAccounts;
  getLookup: GetLookup;
  /** Lookups answered with signed ids; without, every lookup id is a stored lookup. */
  signedLookups?: SignedLookups;
  rates: RateSource;
  settings: PaymentSettingsSource;
  payments: PaymentStore;
  newEvent: NewEvent;
  clock: () => Date;
  quoteValidityMs: number;
  executeQuote: ExecuteQuote;
  /** The payload an embedded-wallet source signs to execute, bound to the quote. */
  walletChallenge?: (
    caller: Caller,
    quoteId: string,
    sourceAccountId: string,
  ) => Promise<{ payloadToSign: string; requestId: string }>;
  /** Strong Customer Authentication: an SCA customer's realtime-funded quote is held for authorization. */
  sca?: { holdNew(caller: Caller, p: Payment): Promise<{ payment: Payment; events: string[] }> };
  /** Before the quote is stored: the receiver's side is asked what it needs (UMA: the pay request to another VASP). */
  beforeStoring?: (p: Payment) => Promise<void>;
}

/** A quote being priced at `now`: the caller's request, its parties, and the platform's settings. */
interface QuoteDraft {
  caller: Caller;
  request: QuoteRequest;
  parties: Parties;
  settings: PaymentSettings;
  now: Date;
}

/** A quote to price and store, with the idempotency record and the agent that creates it, if any. */
interface QuoteBuild extends QuoteDraft {
  idempotency?: Payment['idempotency'];
  agentId?: string;
}

export interface CreateQuoteCommand {
  caller: Caller;
  body: QuoteRequestMessage;
  idempotencyKey?: string;
  /** The agent creating it, remembered on the quote. */
  agentId?: string;
  /** Run on the parties' read before the quote's own checks, and on an idempotent repeat too. */
  partiesCheck?: PartiesCheck;
}

/**
 * Prices a payment and stores it as a quote: a PENDING transaction that executing moves on.
 * Checks, in order: the body, both ends (SELF_PAYMENT), the lookup and its offer, currencies,
 * the price (INVALID_AMOUNT), the offer's bounds and the platform's bounds for the sending
 * currency (both AMOUNT_OUT_OF_RANGE), the single-transaction limit, ownership verification.
 */
export function createCreateQuote(deps: CreateQuoteDeps) {
  async function priced({ caller, request, parties, settings, now }: QuoteDraft) {
    const lookups = { getLookup: deps.getLookup, signed: deps.signedLookups };
    const lookup = request.lookupId
      ? await checkedLookup({ lookups, caller, lookupId: request.lookupId, destination: parties.destination, now })
      : undefined;
    const receivingCode = parties.destination.currency || lookup?.offers[0]?.currency.code || '';
    requireCurrency(parties.source.currency, 'Sending currency');
    requireCurrency(receivingCode, 'Receiving currency');
    const offer = lookup && offerFor(lookup, receivingCode);
    const sending = findCurrency(parties.source.currency)!;
    const receiving = findCurrency(receivingCode)!;
    const crossCurrency = sending.code !== receiving.code;
    const network = parties.destination.destinationType === 'ACCOUNT' ? parties.destination.cryptoNetwork : undefined;
    const networkFee = (await networkFeeCharge(deps.rates, network, sending.code))?.inSending ?? 0;
    const result = price({
      lockedSide: request.lockedSide,
      lockedAmount: request.lockedAmount,
      sendingDecimals: sending.decimals,
      receivingDecimals: receiving.decimals,
      exchangeRate: crossCurrency ? await deps.rates.rate(sending.code, receiving.code) : 1,
      serviceFee: serviceFeeRule(crossCurrency, networkFee),
      platformFee: platformFeeRule({
        sendingCurrency: sending.code,
        crossCurrency,
        configs: settings.feeConfigs,
        override: request.platformFeeOverride,
      }),
    });
    if (offer) assertWithinOffer(offer, result.totalReceiving);
    assertWithinCurrencyBounds(settings.currencyBounds, { currency: sending.code, amount: result.totalSending });
    assertWithinSingleTransactionLimits(
      applicableLimits(settings.limits, sending.code, receiving.code),
      result.totalSending,
    );
    await assertVerifiedIfRequired(deps.rates, parties.destinationStatus, {
      amount: result.totalSending,
      currency: sending,
    });
    return { result, sending, receiving };
  }

  async function build(draft: QuoteBuild): Promise<Payment> {
    const { caller, request, parties, settings, now, idempotency, agentId } = draft;
    const { result, sending, receiving } = await priced(draft);
    const id = newId('Transaction');
    const quoteId = newId('Quote');
    const reference = paymentReference(id);
    const expiresAt = new Date(now.getTime() + deps.quoteValidityMs).toISOString();
    const { source } = parties;
    const wallet = source.sourceType === 'ACCOUNT' && source.internalType === 'EMBEDDED_WALLET' && deps.walletChallenge
      ? await deps.walletChallenge(caller, quoteId, source.accountId)
      : undefined;
    const funding = source.sourceType === 'REALTIME_FUNDING'
      ? sandboxFundingInstructions({ currency: sending.code, cryptoNetwork: source.cryptoNetwork, reference })
      : undefined;
    if (source.sourceType === 'REALTIME_FUNDING' && !funding) {
      throw new AppError(
        'INVALID_CURRENCY',
        `Realtime funding in ${sending.code} is not offered (no collection account in it)`,
      );
    }
    const paymentInstructions = funding
      ?? (wallet
        ? [{ accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign: wallet.payloadToSign } }]
        : undefined);
    const platformFeeAccount = result.fees.platform.total > 0
      ? (await deps.accounts.platformAccount(caller, sending.code))?.id
      : undefined;
    return {
      id,
      platformId: caller.platformId,
      version: 1,
      type: 'OUTGOING',
      status: 'PENDING',
      customerId: parties.customerId,
      platformCustomerId: parties.platformCustomerId,
      ...(agentId ? { agentId } : {}),
      source,
      destination: { ...parties.destination, currency: receiving.code },
      sent: { amount: result.totalSending, currency: sending },
      received: { amount: result.totalReceiving, currency: receiving },
      exchangeRate: result.exchangeRate,
      fees: result.fees,
      ...(platformFeeAccount ? { platformFeeAccount } : {}),
      quote: {
        id: quoteId,
        lockedSide: request.lockedSide,
        lockedAmount: request.lockedAmount,
        expiresAt,
        ...(request.lookupId ? { lookupId: request.lookupId } : {}),
        ...(paymentInstructions ? { paymentInstructions } : {}),
        ...(wallet ? { walletRequestId: wallet.requestId } : {}),
      },
      ...(request.description ? { description: request.description } : {}),
      ...(request.remittanceInformation ? { remittanceInformation: request.remittanceInformation } : {}),
      ...(request.purposeOfPayment ? { purposeOfPayment: request.purposeOfPayment } : {}),
      ...(request.senderCustomerInfo ? { counterpartyInformation: request.senderCustomerInfo } : {}),
      ...(parties.destination.destinationType === 'ACCOUNT' && parties.destination.paymentRail
        ? { paymentRail: parties.destination.paymentRail }
        : {}),
      reference,
      sandboxOutcome: outcomeForAmount(request.lockedAmount),
      ...(source.sourceType === 'REALTIME_FUNDING' ? { stage: 'AWAITING_FUNDS' as const } : {}),
      nextActionAt: expiresAt,
      appliedSteps: [],
      ...(idempotency ? { idempotency } : {}),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
  }

  return async function createQuote(command: CreateQuoteCommand): Promise<Payment> {
    const { caller, idempotencyKey } = command;
    const request = parseQuoteRequest(command.body);
    const idempotency = idempotencyKey ? { key: idempotencyKey, hash: requestHash(command.body) } : undefined;
    if (idempotency) {
      const earlier = await deps.payments.getByIdempotencyKey(caller.platformId, idempotency.key);
      if (earlier) {
        if (command.partiesCheck) {
          command.partiesCheck(await deps.accounts.parties(caller, partiesQuery(request, false)));
        }
        return sameRequestOrConflict(earlier, idempotency.hash);
      }
    }
    // The platform's settings come with the parties, in the same read of the accounts service.
    const { parties, settings } = await resolveParties(deps.accounts, caller, request, {
      settings: true,
      ...(command.partiesCheck ? { check: command.partiesCheck } : {}),
    });
    if (
      request.immediatelyExecute && parties.source.sourceType === 'ACCOUNT'
      && parties.source.internalType === 'EMBEDDED_WALLET'
    ) {
      throw AppError.invalidInput('immediatelyExecute is not supported for embedded-wallet sources', [
        { field: 'immediatelyExecute', message: 'create the quote, then execute it with a Service-Wallet-Signature' },
      ]);
    }
    const built = await build({
      caller,
      request,
      parties,
      settings: settings ?? (await deps.settings.get(caller)),
      now: deps.clock(),
      idempotency,
      agentId: command.agentId,
    });
    await deps.beforeStoring?.(built);
    const { payment, events } = deps.sca && built.source.sourceType === 'REALTIME_FUNDING'
      ? await deps.sca.holdNew(caller, built)
      : { payment: built, events: ['QUOTE.CREATED', 'OUTGOING_PAYMENT.PENDING'] };
    try {
      await deps.payments.insert(payment, paymentEvents(deps.newEvent, payment, events));
    } catch (err) {
      if (!(err instanceof IdempotencyKeyTaken)) throw err;
      return sameRequestOrConflict(
        (await deps.payments.getByIdempotencyKey(caller.platformId, err.key))!,
        idempotency!.hash,
      );
    }
    if (!request.immediatelyExecute) return payment;
    return deps.executeQuote({ caller, quoteId: payment.quote!.id });
  };
}

export type CreateQuote = ReturnType<typeof createCreateQuote>;
