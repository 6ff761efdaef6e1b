import { Type } from '@sinclair/typebox';
import { idPattern, type IdType } from '../../lib/ids';
import {
  PAYMENT_RAILS,
  PENDING_REASONS,
  PURPOSES_OF_PAYMENT,
  TRANSACTION_STATUSES,
} from '../../lib/contract/payment-vocabulary';
import { Currency, CurrencyAmount, List, Page, pageQuery } from './common-schemas';
import { InternalAccount, PaymentInstructions } from './account-contract';
import { CardTransaction } from './card-contract';
import { CounterpartyField } from './platform-config-contract';
import { operation } from './operation';
import { ScaAuthorization, ScaChallenge, ScaFactor } from './sca-contract';
import { ClosedObject, DateTime, Id, MinorUnits, named, Nullable, StringEnum } from './schema-kit';

const QUOTE_STATUSES = ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
const FAILURE_REASONS = [
  'QUOTE_EXPIRED',
  'QUOTE_EXECUTION_FAILED',
  'FUNDING_AMOUNT_MISMATCH',
  'SCA_NOT_COMPLETED',
  'PAYOUT_RETURNED',
  'LIMIT_EXCEEDED',
  'ACCOUNT_CANNOT_RECEIVE',
  'ACCOUNT_INVALID',
  'COMPLIANCE_REJECTED',
  'LIGHTNING_PAYMENT_FAILED',
  'COUNTERPARTY_POST_TX_FAILED',
  'LNURLP_FAILED',
  'PAY_REQUEST_FAILED',
  'PAYMENT_APPROVAL_WEBHOOK_ERROR',
  'PAYMENT_APPROVAL_TIMED_OUT',
  'OFFRAMP_FAILED',
  'MISSING_MANDATORY_PAYEE_DATA',
  'COLLECTION_FAILED',
] as const;

const UMA_ADDRESS = '^\\$[A-Za-z0-9._+-]{1,64}@'
  + '(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}|localhost:[0-9]{1,5})$';
/**
 * The payments service reads `null` as absent. Amounts travel as int64 minor units, so a fraction is
 * a shape error here; a value beyond MAX_AMOUNT is INVALID_AMOUNT here, a zero or negative one the service's.
 */
const Opt = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));
const Amount = (description: string) =>
  MinorUnits({ description: `${description}, in minor units (a positive integer)` });
const Code = Type.String({ minLength: 1, maxLength: 10, description: 'Currency code' });
const AnyId = (...types: IdType[]) =>
  Type.String({ pattern: types.map(idPattern).join('|'), description: `${types.join(' or ')} id` });

/** `members` are required when `member` is `value` (a union member's own requirements). */
const requiredWhen = (member: string, cases: Record<string, string[]>) => ({
  allOf: Object.entries(cases).map(([value, required]) => ({
    if: { properties: { [member]: { const: value } }, required: [member] },
    then: { required },
  })),
});

const OnChainTransaction = ClosedObject({ transactionHash: Type.String(), network: Type.String() });

const RateDetails = named(
  'RateDetails',
  ClosedObject({
    counterpartyMultiplier: Type.Number(),
    counterpartyFixedFee: MinorUnits({ minimum: 0 }),
    gridApiMultiplier: Type.Number(),
    gridApiFixedFee: MinorUnits({ minimum: 0 }),
    gridApiVariableFeeRate: Type.Number({ minimum: 0 }),
    gridApiVariableFeeAmount: Type.Number({ minimum: 0 }),
  }),
);

const CounterpartyInformation = Type.Object({}, {
  description: 'What the counterparty asked of or told about the payer; free-form',
});

const QuoteSource = Type.Union([
  ClosedObject({
    sourceType: Type.Literal('ACCOUNT'),
    accountId: Type.String(),
    customerId: Type.Optional(Id('Customer')),
  }),
  ClosedObject({
    sourceType: Type.Literal('REALTIME_FUNDING'),
    customerId: Type.Optional(Id('Customer')),
    currency: Type.String(),
    cryptoNetwork: Type.Optional(Type.String({ description: 'The network a crypto funding currency is paid on' })),
    onChainTransaction: Type.Optional(OnChainTransaction),
  }),
]);
const QuoteDestination = Type.Union([
  ClosedObject({
    destinationType: Type.Literal('ACCOUNT'),
    accountId: Type.String(),
    paymentRail: Type.Optional(StringEnum(PAYMENT_RAILS)),
  }),
  ClosedObject({ destinationType: Type.Literal('UMA_ADDRESS'), umaAddress: Type.String(), currency: Type.String() }),
]);

/** The filters of a transaction list, the platform's and an agent's alike. */
export const transactionFilters = {
  accountIdentifier: Type.Optional(Type.String()),
  senderAccountIdentifier: Type.Optional(Type.String()),
  receiverAccountIdentifier: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  reference: Type.Optional(Type.String()),
  startDate: Type.Optional(Type.String()),
  endDate: Type.Optional(Type.String()),
  sortOrder: Type.Optional(Type.String({ description: 'asc or desc' })),
  ...pageQuery,
};

export const Quote = named(
  'Quote',
  ClosedObject({
    id: Id('Quote'),
    status: StringEnum(QUOTE_STATUSES),
    createdAt: DateTime(),
    expiresAt: DateTime(),
    source: QuoteSource,
    destination: QuoteDestination,
    sendingCurrency: Currency,
    receivingCurrency: Currency,
    totalSendingAmount: MinorUnits(),
    totalReceivingAmount: MinorUnits(),
    exchangeRate: Type.Number(),
    feesIncluded: MinorUnits({ minimum: 0 }),
    platformFeesIncluded: Type.Optional(MinorUnits({ minimum: 0 })),
    paymentInstructions: Type.Optional(Type.Array(PaymentInstructions)),
    transactionId: Id('Transaction'),
    counterpartyInformation: Type.Optional(CounterpartyInformation),
    rateDetails: Type.Optional(RateDetails),
    scaChallenge: Type.Optional(ScaChallenge),
  }),
);

const TransactionSource = Type.Union([
  ClosedObject({
    sourceType: Type.Literal('ACCOUNT'),
    accountId: Type.String(),
    currency: Type.String(),
    onChainTransaction: Type.Optional(OnChainTransaction),
  }),
  ClosedObject({
    sourceType: Type.Literal('REALTIME_FUNDING'),
    customerId: Type.Optional(Id('Customer')),
    currency: Type.String(),
    onChainTransaction: Type.Optional(OnChainTransaction),
  }),
  ClosedObject({ sourceType: Type.Literal('UMA_ADDRESS'), umaAddress: Type.String(), currency: Type.String() }),
]);
const TransactionDestination = Type.Union([
  ClosedObject({
    destinationType: Type.Literal('ACCOUNT'),
    accountId: Type.String(),
    currency: Type.String(),
    onChainTransaction: Type.Optional(OnChainTransaction),
  }),
  ClosedObject({ destinationType: Type.Literal('UMA_ADDRESS'), umaAddress: Type.String(), currency: Type.String() }),
]);

const Refund = ClosedObject({
  reference: Type.String(),
  initiatedAt: DateTime(),
  settledAt: Type.Optional(DateTime()),
  status: StringEnum(['PENDING', 'COMPLETED', 'FAILED'] as const),
  reason: Type.Optional(StringEnum(['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT'] as const)),
});

/** Incoming and outgoing transactions in one record; the members only outgoing ones carry are optional. */
export const Transaction = named(
  'Transaction',
  ClosedObject({
    id: Id('Transaction'),
    agentId: Type.Optional(Id('Agent', { description: "The agent that initiated it; absent for the platform's own" })),
    status: StringEnum(TRANSACTION_STATUSES),
    pendingReason: Type.Optional(StringEnum(PENDING_REASONS)),
    type: StringEnum(['INCOMING', 'OUTGOING'] as const),
    direction: StringEnum(['CREDIT', 'DEBIT'] as const),
    source: TransactionSource,
    destination: TransactionDestination,
    customerId: Id('Customer'),
    platformCustomerId: Type.String(),
    settledAt: Type.Optional(DateTime()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
    receiptDeliveryConfirmedAt: Type.Optional(DateTime()),
    description: Type.Optional(Type.String()),
    sentAmount: CurrencyAmount,
    receivedAmount: CurrencyAmount,
    exchangeRate: Type.Optional(Type.Number()),
    quoteId: Type.Optional(Id('Quote')),
    refund: Type.Optional(Refund),
    counterpartyInformation: Type.Optional(CounterpartyInformation),
    fees: MinorUnits({ minimum: 0 }),
    platformFees: Type.Optional(MinorUnits({ minimum: 0 })),
    reconciliationInstructions: Type.Optional(
      ClosedObject({ reference: Type.String(), transactionHash: Type.Optional(Type.String()) }),
    ),
    paymentInstructions: Type.Optional(Type.Array(PaymentInstructions)),
    rateDetails: Type.Optional(RateDetails),
    failureReason: Type.Optional(StringEnum(FAILURE_REASONS)),
    paymentRail: Type.Optional(Nullable(StringEnum(PAYMENT_RAILS))),
    railSelectionMode: Type.Optional(Nullable(StringEnum(['MANUAL', 'AUTO'] as const))),
    receiverCustomerInfo: Type.Optional(Type.Object({}, {
      description: "Incoming on an approval rail: what the platform told the sender's VASP about the "
        + 'recipient in its 200 answer to the INCOMING_PAYMENT.PENDING webhook; free-form',
    })),
  }),
);
/** The reference's TransactionOneOf: a payment, or a card transaction (type CARD) in the transaction reads. */
export const TransactionOneOf = named('TransactionOneOf', Type.Union([Transaction, CardTransaction]));

export const QuoteRequest = named(
  'QuoteRequest',
  Type.Object({
    lookupId: Opt(Id('Lookup')),
    source: Type.Object({
      sourceType: StringEnum(['ACCOUNT', 'REALTIME_FUNDING'] as const),
      accountId: Opt(AnyId('InternalAccount', 'ExternalAccount')),
      customerId: Opt(Id('Customer')),
      currency: Opt(Code),
      cryptoNetwork: Opt(Type.String({ maxLength: 20 })),
    }, {
      description: 'ACCOUNT needs `accountId`; REALTIME_FUNDING needs `currency`',
      ...requiredWhen('sourceType', { ACCOUNT: ['accountId'], REALTIME_FUNDING: ['currency'] }),
    }),
    destination: Type.Object({
      destinationType: StringEnum(['ACCOUNT', 'UMA_ADDRESS'] as const),
      accountId: Opt(AnyId('ExternalAccount', 'InternalAccount')),
      paymentRail: Opt(StringEnum(PAYMENT_RAILS)),
      umaAddress: Opt(Type.String({ maxLength: 255, pattern: UMA_ADDRESS })),
      currency: Opt(Type.String({ maxLength: 10 })),
    }, {
      description: 'ACCOUNT needs `accountId`; UMA_ADDRESS needs `umaAddress`',
      ...requiredWhen('destinationType', { ACCOUNT: ['accountId'], UMA_ADDRESS: ['umaAddress'] }),
    }),
    lockedCurrencySide: StringEnum(['SENDING', 'RECEIVING'] as const),
    lockedCurrencyAmount: Amount('The amount of the locked side'),
    immediatelyExecute: Opt(Type.Boolean()),
    description: Opt(Type.String({ maxLength: 1000 })),
    remittanceInformation: Opt(Type.String({ maxLength: 80 })),
    purposeOfPayment: Opt(StringEnum(PURPOSES_OF_PAYMENT)),
    platformFeeOverride: Opt(Type.Object({
      platformFixedFee: Type.Object({ amount: MinorUnits({ minimum: 0 }), currency: Code }),
      platformVariableFeeBps: Type.Integer({ minimum: 0, maximum: 10000 }),
    })),
    senderCustomerInfo: Opt(Type.Object({}, { description: 'Payer data the receiver asked for (see the lookup)' })),
  }),
);

const accountReference = (type: 'InternalAccount' | 'ExternalAccount') => Type.Object({ accountId: Id(type) });

export const TransferInRequest = named(
  'TransferInRequest',
  Type.Object({
    source: accountReference('ExternalAccount'),
    destination: accountReference('InternalAccount'),
    amount: Amount('The amount'),
  }),
);
export const TransferOutRequest = named(
  'TransferOutRequest',
  Type.Object({
    source: accountReference('InternalAccount'),
    destination: Type.Object({ accountId: Id('ExternalAccount'), paymentRail: Opt(StringEnum(PAYMENT_RAILS)) }),
    amount: Amount('The amount'),
    remittanceInformation: Opt(Type.String({ maxLength: 80 })),
    purposeOfPayment: Opt(StringEnum(PURPOSES_OF_PAYMENT)),
  }),
);

const ExchangeRate = named(
  'ExchangeRate',
  ClosedObject({
    sourceCurrency: Currency,
    sendingAmount: MinorUnits({ minimum: 0 }),
    minSendingAmount: MinorUnits({ minimum: 0 }),
    maxSendingAmount: MinorUnits({ minimum: 0 }),
    destinationCurrency: Currency,
    destinationPaymentRail: Type.String(),
    receivingAmount: MinorUnits({ minimum: 0 }),
    exchangeRate: Type.Number(),
    fees: ClosedObject({ fixed: MinorUnits({ minimum: 0 }), total: MinorUnits({ minimum: 0 }) }),
    updatedAt: DateTime(),
  }),
);

const lookupMembers = {
  supportedCurrencies: Type.Array(ClosedObject({
    currency: Currency,
    estimatedExchangeRate: Type.Number(),
    min: MinorUnits({ minimum: 0 }),
    max: MinorUnits({ minimum: 0 }),
  })),
  requiredPayerDataFields: Type.Array(CounterpartyField),
  lookupId: Id('Lookup'),
};
const ExternalAccountLookup = named(
  'ReceiverExternalAccountLookup',
  ClosedObject({ ...lookupMembers, accountId: Type.String() }),
);
const UmaLookup = named('ReceiverUmaLookup', ClosedObject({ ...lookupMembers, receiverUmaAddress: Type.String() }));
const lookupQuery = { senderUmaAddress: Type.Optional(Type.String()), customerId: Type.Optional(Type.String()) };

const reasonBody = (what: string) => Type.Object({ reason: Opt(Type.String({ description: what })) });
const transactionId = { transactionId: Type.String({ description: 'Transaction id' }) };
const quoteId = { quoteId: Type.String({ description: 'Quote id' }) };
const QUOTES = ['Cross-Currency Transfers'];
const TRANSFERS = ['Same-Currency Transfers'];
const RATES = ['Exchange Rates'];
const TRANSACTIONS = ['Transactions'];
const SANDBOX = ['Sandbox'];
const LOOKUPS = ['Cross-Currency Transfers'];

export const paymentOperations = [
  operation({
    operationId: 'createQuote',
    method: 'post',
    path: '/quotes',
    tags: QUOTES,
    summary: 'Quote a payment (and optionally execute it)',
    headers: ['idempotencyKey'],
    body: QuoteRequest,
    success: { 201: Quote },
    errors: [403, 404, 409, 412, 424],
  }),
  operation({
    operationId: 'listQuotes',
    method: 'get',
    path: '/quotes',
    tags: QUOTES,
    summary: 'List quotes with filters (newest first)',
    query: {
      customerId: Type.Optional(Type.String({ description: 'The sending customer' })),
      sendingAccountId: Type.Optional(Type.String()),
      receivingAccountId: Type.Optional(Type.String()),
      sendingUmaAddress: Type.Optional(Type.String()),
      receivingUmaAddress: Type.Optional(Type.String()),
      status: Type.Optional(
        Type.String({ description: 'PENDING, PENDING_AUTHORIZATION, PROCESSING, COMPLETED, FAILED or EXPIRED' }),
      ),
      createdAfter: Type.Optional(Type.String({ description: 'ISO 8601, inclusive' })),
      createdBefore: Type.Optional(Type.String({ description: 'ISO 8601, inclusive' })),
      ...pageQuery,
    },
    success: { 200: Page('QuoteList', Quote) },
    // 409 SCA_SESSION_REQUIRED: an SCA customer's quotes before the window without a live SCA session
    // (docs/api/sca.md).
    errors: [409],
  }),
  operation({
    operationId: 'getQuote',
    method: 'get',
    path: '/quotes/{quoteId}',
    tags: QUOTES,
    summary: 'Read a quote',
    pathParams: quoteId,
    success: { 200: Quote },
    errors: [404, 409],
  }),
  operation({
    operationId: 'executeQuote',
    method: 'post',
    path: '/quotes/{quoteId}/execute',
    tags: QUOTES,
    summary: 'Execute a quote funded from an account',
    pathParams: quoteId,
    headers: ['idempotencyKey', 'walletSignature', 'requestId'],
    optionalBody: true,
    body: named('ExecuteQuoteRequest', Type.Object({ scaFactor: Type.Optional(ScaFactor) })),
    success: { 200: Quote },
    errors: [403, 404, 409, 424],
  }),
  operation({
    operationId: 'authorizeQuote',
    method: 'post',
    path: '/quotes/{quoteId}/authorize',
    tags: ['Strong Customer Authentication'],
    summary: "Authorize a PENDING_AUTHORIZATION quote's SCA challenge (docs/api/sca.md)",
    pathParams: quoteId,
    body: ScaAuthorization,
    success: { 200: Quote },
    errors: [404, 409, 423],
  }),
  operation({
    operationId: 'resendQuoteScaCode',
    method: 'post',
    path: '/quotes/{quoteId}/authorize/resend',
    tags: ['Strong Customer Authentication'],
    summary: "Re-send the SMS code of a quote's challenge (its expiresAt is not extended)",
    pathParams: quoteId,
    success: { 204: null },
    errors: [404, 409],
  }),
  operation({
    operationId: 'transferIn',
    method: 'post',
    path: '/transfer-in',
    tags: TRANSFERS,
    summary: 'Move money from an external account into an internal one (same currency)',
    headers: ['idempotencyKey'],
    body: TransferInRequest,
    success: { 201: Transaction },
    errors: [403, 404, 409, 410],
  }),
  operation({
    operationId: 'transferOut',
    method: 'post',
    path: '/transfer-out',
    tags: TRANSFERS,
    summary: 'Move money from an internal account to an external one (same currency)',
    headers: ['idempotencyKey'],
    body: TransferOutRequest,
    success: { 201: Transaction },
    errors: [403, 404, 409, 410],
  }),
  operation({
    operationId: 'listExchangeRates',
    method: 'get',
    path: '/exchange-rates',
    tags: RATES,
    summary: 'Current exchange rates and fees',
    query: {
      sourceCurrency: Type.Optional(Type.String()),
      destinationCurrency: Type.Optional(
        Type.Union([Type.String(), Type.Array(Type.String())], { description: 'Repeat, or separate with commas' }),
      ),
      sendingAmount: Type.Optional(Type.String({ description: 'Minor units' })),
    },
    success: { 200: List('ExchangeRateList', ExchangeRate) },
  }),
  operation({
    operationId: 'listTransactions',
    method: 'get',
    path: '/transactions',
    tags: TRANSACTIONS,
    summary: 'List transactions with filters',
    query: {
      customerId: Type.Optional(Type.String()),
      platformCustomerId: Type.Optional(Type.String()),
      ...transactionFilters,
    },
    success: { 200: Page('TransactionList', TransactionOneOf) },
    // 409 SCA_SESSION_REQUIRED: an SCA customer's history before the window without a live SCA session
    // (docs/api/sca.md).
    errors: [409],
  }),
  operation({
    operationId: 'getTransaction',
    method: 'get',
    path: '/transactions/{transactionId}',
    tags: TRANSACTIONS,
    summary: 'Read a transaction (a payment, or a card transaction: type CARD)',
    pathParams: transactionId,
    success: { 200: TransactionOneOf },
    errors: [404, 409],
  }),
  operation({
    operationId: 'listTransactionPostings',
    method: 'get',
    path: '/transactions/{transactionId}/postings',
    tags: TRANSACTIONS,
    summary: 'Our extension: the ledger postings of a payment, step by step as applied (empty for a card transaction)',
    pathParams: transactionId,
    success: {
      200: named(
        'LedgerPostingList',
        ClosedObject({
          data: Type.Array(named(
            'LedgerPosting',
            ClosedObject({
              step: StringEnum(['fund', 'debit', 'settle', 'refund', 'receive', 'credit'] as const, {
                description: 'The payment step that applied it',
              }),
              account: Type.String({
                description:
                  'An internal account id, or a system counter-account `ledger:<kind>:<currency>:<platform>`',
              }),
              currency: Type.String(),
              amount: Type.Integer({
                description: 'Minor units: credit positive, debit negative; each step sums to zero per currency',
              }),
            }),
          )),
        }),
      ),
    },
    errors: [404, 409],
  }),
  operation({
    operationId: 'confirmReceiptDelivery',
    method: 'post',
    path: '/transactions/{transactionId}/confirm',
    tags: TRANSACTIONS,
    summary: 'Record that the receipt reached the customer',
    pathParams: transactionId,
    optionalBody: true,
    body: Type.Object({ receiptDeliveryConfirmedAt: Opt(DateTime()) }),
    success: { 200: Transaction },
    errors: [404, 409],
  }),
  operation({
    operationId: 'approveTransaction',
    method: 'post',
    path: '/transactions/{transactionId}/approve',
    tags: TRANSACTIONS,
    summary: 'Approve an incoming payment awaiting the platform',
    pathParams: transactionId,
    optionalBody: true,
    body: Type.Object({ receiverCustomerInfo: Opt(Type.Object({})) }),
    success: { 200: Transaction },
    errors: [404, 409],
  }),
  operation({
    operationId: 'rejectTransaction',
    method: 'post',
    path: '/transactions/{transactionId}/reject',
    tags: TRANSACTIONS,
    summary: 'Reject an incoming payment awaiting the platform',
    pathParams: transactionId,
    optionalBody: true,
    body: reasonBody('Why it is rejected'),
    success: { 200: Transaction },
    errors: [404, 409],
  }),
  operation({
    operationId: 'cancelTransaction',
    method: 'post',
    path: '/transactions/{transactionId}/cancel',
    tags: TRANSACTIONS,
    summary: 'Cancel an outgoing payment not yet sent',
    pathParams: transactionId,
    optionalBody: true,
    body: reasonBody('Why it is cancelled'),
    success: { 200: Transaction },
    errors: [404, 409],
  }),
  operation({
    operationId: 'lookupExternalAccount',
    method: 'get',
    path: '/receiver/external-account/{accountId}',
    tags: LOOKUPS,
    summary: 'What an external account can be paid in',
    pathParams: { accountId: Type.String() },
    query: lookupQuery,
    success: { 200: ExternalAccountLookup },
    errors: [404, 412, 424],
  }),
  operation({
    operationId: 'lookupUma',
    method: 'get',
    path: '/receiver/uma/{receiverUmaAddress}',
    tags: LOOKUPS,
    summary: 'What an UMA address can be paid in',
    pathParams: { receiverUmaAddress: Type.String() },
    query: lookupQuery,
    success: { 200: UmaLookup },
    errors: [404, 412, 424],
  }),
  operation({
    operationId: 'fundInternalAccount',
    method: 'post',
    path: '/sandbox/internal-accounts/{accountId}/fund',
    tags: SANDBOX,
    summary: 'Add money to an internal account (sandbox)',
    pathParams: { accountId: Id('InternalAccount') },
    body: Type.Object({ amount: Amount('The amount to add') }),
    success: { 200: InternalAccount },
    errors: [403, 404, 410],
  }),
  operation({
    operationId: 'simulateSend',
    method: 'post',
    path: '/sandbox/send',
    tags: SANDBOX,
    summary: 'Pay a realtime-funded quote as the customer would (sandbox)',
    body: Type.Object({ quoteId: Id('Quote'), currencyCode: Code, currencyAmount: Opt(Amount('The amount paid')) }),
    success: { 200: Transaction },
    errors: [403, 404, 409],
  }),
  operation({
    operationId: 'simulateUmaReceive',
    method: 'post',
    path: '/sandbox/uma/receive',
    tags: SANDBOX,
    summary: 'Receive an UMA payment (sandbox)',
    body: Type.Object({
      senderUmaAddress: Type.String({ minLength: 1, maxLength: 255, pattern: UMA_ADDRESS }),
      receiverUmaAddress: Opt(Type.String({ maxLength: 255, pattern: UMA_ADDRESS })),
      customerId: Opt(Id('Customer')),
      receivingCurrencyCode: Code,
      receivingCurrencyAmount: Amount('The amount received'),
    }, { description: 'Name the receiver by `customerId` or `receiverUmaAddress`' }),
    success: { 200: Transaction },
    errors: [403, 404],
  }),
];
