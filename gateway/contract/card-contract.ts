import { Type, type TSchema } from '@sinclair/typebox';
import {
  CARD_BRANDS,
  CARD_FORMS,
  CARD_STATE_REASONS,
  CARD_STATES,
  REQUESTABLE_CARD_STATES,
} from '../../lib/contract/card-types';
import { CardTransaction } from '../../lib/contract/card-records';
import { Page, pageQuery } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, DateTime, Id, MinorUnits, named, Nullable, StringEnum } from './schema-kit';

const TAGS = ['Cards'];

export { CardTransaction };

export const CardState = named('CardState', StringEnum(CARD_STATES));
export const CardStateReason = named('CardStateReason', StringEnum(CARD_STATE_REASONS));

/** The reference's Card: no PAN, CVV or reveal URL, ever. */
export const Card = named(
  'Card',
  ClosedObject({
    id: Id('Card'),
    cardholderId: Id('Customer', { description: 'The Customer holding the card' }),
    platformCardId: Type.Optional(
      Type.String({ description: "The platform's identifier; the card id when none was given" }),
    ),
    state: CardState,
    stateReason: Type.Optional(Nullable(CardStateReason)),
    brand: Type.Optional(named('CardBrand', StringEnum(CARD_BRANDS))),
    form: named('CardForm', StringEnum(CARD_FORMS)),
    last4: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
    expMonth: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
    expYear: Type.Optional(Type.Integer()),
    fundingSources: Type.Array(Type.String(), {
      description: 'Internal account ids in priority order (empty once CLOSED: bindings are detached)',
    }),
    currency: Type.Optional(Type.String()),
    processorRef: Type.Optional(Type.String()),
    issuerRef: Type.Optional(Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

/** The reference's CardRevealResponse: the card data itself is only on the page the URL opens. */
export const CardRevealResponse = named(
  'CardRevealResponse',
  ClosedObject({
    panEmbedUrl: Type.String({
      format: 'uri',
      description: 'Signed URL of the page showing PAN, CVV and expiry; opens once, until expiresAt',
    }),
    expiresAt: DateTime(),
  }),
);

const fundingSources = Type.Array(Type.String(), {
  minItems: 1,
  description: 'Internal account ids of the cardholder, in priority order',
});

const CardCreateRequest = named(
  'CardCreateRequest',
  Type.Object({
    cardholderId: Type.String({ description: 'A customer whose KYC status is APPROVED' }),
    platformCardId: Type.Optional(Type.String({ minLength: 1 })),
    threeDSecurePassword: Type.Optional(
      Type.String({ description: 'Refused: the embedded issuer has no static-password factor' }),
    ),
    form: named('CardForm', StringEnum(CARD_FORMS)),
    fundingSources,
  }),
);

const CardUpdateRequest = named(
  'CardUpdateRequest',
  Type.Object({
    state: Type.Optional(StringEnum(REQUESTABLE_CARD_STATES)),
    fundingSources: Type.Optional(fundingSources),
  }),
);

const id = { id: Type.String({ description: 'The card id' }) };

export const cardOperations = [
  operation({
    operationId: 'createCard',
    method: 'post',
    path: '/cards',
    tags: TAGS,
    summary: 'Issue a card (PROCESSING until the issuer provisions it)',
    body: CardCreateRequest,
    success: { 201: Card },
    errors: [409],
  }),
  operation({
    operationId: 'listCards',
    method: 'get',
    path: '/cards',
    tags: TAGS,
    summary: 'List cards, newest first unless sortOrder is asc',
    query: {
      cardholderId: Type.Optional(Type.String()),
      accountId: Type.Optional(Type.String({ description: 'Cards funded by this internal account' })),
      platformCardId: Type.Optional(Type.String()),
      state: Type.Optional(StringEnum(CARD_STATES)),
      sortOrder: Type.Optional(StringEnum(['asc', 'desc'] as const)),
      ...pageQuery,
    },
    success: { 200: Page('CardListResponse', Card) },
  }),
  operation({
    operationId: 'getCardById',
    method: 'get',
    path: '/cards/{id}',
    tags: TAGS,
    summary: 'Read a card',
    pathParams: id,
    success: { 200: Card },
    errors: [404],
  }),
  operation({
    operationId: 'updateCardById',
    method: 'patch',
    path: '/cards/{id}',
    tags: TAGS,
    summary: 'Freeze, unfreeze or close a card, and/or replace its funding sources',
    pathParams: id,
    body: CardUpdateRequest,
    success: { 200: Card },
    errors: [404, 409],
  }),
  operation({
    operationId: 'revealCard',
    method: 'post',
    path: '/cards/{id}/reveal',
    tags: TAGS,
    summary: 'Mint a signed, short-lived, single-use URL of the page '
      + "showing the card's PAN, CVV and expiry (docs/api/cards.md)",
    // 403: no attributable actor; 409: the card is CLOSED (CARD_ALREADY_CLOSED) or not provisioned yet; 501: the issuer
    // serves no page here.
    pathParams: id,
    success: { 200: CardRevealResponse },
    errors: [403, 404, 409, 501],
  }),
  operation({
    operationId: 'getCardRevealPage',
    method: 'get',
    path: '/card-reveal/{token}',
    root: true,
    authenticated: false,
    tags: TAGS,
    summary: "The page a panEmbedUrl opens (HTML): the card's PAN, CVV and "
      + 'expiry, once; strict CSP, framed only by CARDS_REVEAL_FRAME_ANCESTORS',
    pathParams: { token: Type.String() },
    success: {
      200: Type.String({ description: 'HTML page' }),
      404: Type.String({ description: 'HTML page: tampered, expired or used link' }),
    },
    responseMediaTypes: { 200: 'text/html', 404: 'text/html' },
  }),
];

const SANDBOX_TAGS = ['Sandbox'];
const SandboxCardSimulationResponse = named(
  'SandboxCardSimulationResponse',
  ClosedObject({
    issuerTransactionToken: Type.String({
      description: 'Correlates the CARD_TRANSACTION.* webhooks (their issuerTransactionToken) with this simulation',
    }),
  }),
);
const CardMerchantInput = Type.Object({
  descriptor: Type.String({ minLength: 1 }),
  mcc: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
});
const SandboxCardAuthorizationRequest = named(
  'SandboxCardAuthorizationRequest',
  Type.Object({
    amount: MinorUnits({ minimum: 1 }),
    currency: Type.Object({ code: Type.String() }),
    merchant: CardMerchantInput,
  }),
);
const SandboxCardTransactionRefRequest = named(
  'SandboxCardTransactionRefRequest',
  Type.Object({ cardTransactionId: Type.String() }),
);

/** One `POST /sandbox/cards/{id}/simulate/<path>` operation; every simulation answers the same 202. */
const simulation = (operationId: string, path: string, summary: string, body: TSchema) =>
  operation({
    operationId,
    method: 'post',
    path: `/sandbox/cards/{id}/simulate/${path}`,
    tags: SANDBOX_TAGS,
    summary,
    pathParams: id,
    body,
    success: { 202: SandboxCardSimulationResponse },
    errors: [404],
  });

export const cardSandboxOperations = [
  simulation(
    'sandboxSimulateCardAuthorization',
    'authorization',
    'An authorization on the card (sandbox): descriptor suffix 002 declines INSUFFICIENT_FUNDS, 003 CARD_PAUSED',
    SandboxCardAuthorizationRequest,
  ),
  simulation(
    'sandboxSimulateCardClearing',
    'clearing',
    'A clearing against an AUTHORIZED or PARTIALLY_SETTLED card transaction (sandbox); 0 expires the authorization',
    named(
      'SandboxCardClearingRequest',
      Type.Object({ cardTransactionId: Type.String(), amount: MinorUnits({ minimum: 0 }) }),
    ),
  ),
  simulation(
    'sandboxSimulateCardReturn',
    'return',
    'A return against a settled card transaction (sandbox), at most what settled and was not returned',
    named(
      'SandboxCardReturnRequest',
      Type.Object({ cardTransactionId: Type.String(), amount: MinorUnits({ minimum: 1 }) }),
    ),
  ),
  simulation(
    'sandboxSimulateCardBalanceInquiry',
    'balance_inquiry',
    'A balance inquiry (sandbox): a zero-amount authorization, nothing held',
    named('SandboxCardBalanceInquiryRequest', Type.Object({ merchant: CardMerchantInput })),
  ),
  simulation(
    'sandboxSimulateCardCreditAuthorization',
    'credit_authorization',
    'A credit to the card (sandbox): the funding source is credited '
      + 'in one step; CARD_TRANSACTION.SETTLED, direction CREDIT',
    SandboxCardAuthorizationRequest,
  ),
  simulation(
    'sandboxSimulateCardFinancialAuthorization',
    'financial_authorization',
    'A single-message debit (sandbox): debited and settled in '
      + 'one step; suffix 002/003 decline, 005 confirms the pull later',
    SandboxCardAuthorizationRequest,
  ),
  simulation(
    'sandboxSimulateCardFinancialCreditAuthorization',
    'financial_credit_authorization',
    'A single-message credit (sandbox): credited and settled in one step',
    SandboxCardAuthorizationRequest,
  ),
  simulation(
    'sandboxSimulateCardCreditAuthorizationAdvice',
    'credit_authorization_advice',
    'A network-initiated credit advice (sandbox): credited in one step',
    SandboxCardAuthorizationRequest,
  ),
  simulation(
    'sandboxSimulateCardAuthorizationAdvice',
    'authorization_advice',
    'Re-sizes an AUTHORIZED or PARTIALLY_SETTLED authorization to a new total '
      + '(sandbox): the hold grows (EXCEPTION if the source no longer covers it) or shrinks',
    named(
      'SandboxCardAuthorizationAdviceRequest',
      Type.Object({ cardTransactionId: Type.String(), amount: MinorUnits({ minimum: 1 }) }),
    ),
  ),
  simulation(
    'sandboxSimulateCardReturnReversal',
    'return_reversal',
    'Reverses the last return of a refunded card transaction (sandbox): the money goes back to the network',
    SandboxCardTransactionRefRequest,
  ),
];
