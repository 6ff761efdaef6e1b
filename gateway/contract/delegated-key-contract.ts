import { Type } from '@sinclair/typebox';
import { List, SignedRetryChallenge } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, DateTime, Id, MinorUnits, named, StringEnum } from './schema-kit';

const TAGS = ['Embedded Wallet Auth'];

const DelegatedKeySpendingLimit = named(
  'DelegatedKeySpendingLimit',
  ClosedObject({
    currencyCode: Type.String({ pattern: '^[A-Z0-9]{3,16}$', description: "The card's currency" }),
    maxPerTransaction: MinorUnits({ minimum: 1, description: 'Largest single card transaction, in minor units' }),
  }),
);

/** The reference's DelegatedKey: the public key only; the private key never leaves the service. */
const DelegatedKey = named(
  'DelegatedKey',
  ClosedObject({
    id: Id('DelegatedKey'),
    cardId: Id('Card'),
    fundingSourceId: Id('CardFundingSource', {
      description: "The card's binding to the wallet (derived from cardId and accountId)",
    }),
    accountId: Id('InternalAccount', { description: 'The Embedded Wallet internal account' }),
    publicKey: Type.String({ pattern: '^0[23][0-9a-f]{64}$', description: 'Compressed P-256 public key (hex)' }),
    nickname: Type.String(),
    status: named('DelegatedKeyStatus', StringEnum(['PENDING', 'ACTIVE', 'REVOKED'] as const)),
    spendingLimits: Type.Optional(Type.Array(DelegatedKeySpendingLimit, { uniqueItems: true })),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

const DelegatedKeyCreateRequest = named(
  'DelegatedKeyCreateRequest',
  Type.Object({
    cardId: Type.String({ description: 'The card funded by the wallet' }),
    internalAccountId: Type.String({ description: 'The Embedded Wallet internal account funding the card' }),
    nickname: Type.String({ minLength: 1, maxLength: 256 }),
    spendingLimits: Type.Optional(
      Type.Array(DelegatedKeySpendingLimit, {
        uniqueItems: true,
        description: 'At most one entry per currency; immutable',
      }),
    ),
  }),
);

const id = { id: Type.String({ description: 'The delegated key id' }) };

export const delegatedKeyOperations = [
  operation({
    operationId: 'createDelegatedKey',
    method: 'post',
    path: '/auth/delegated-keys',
    tags: TAGS,
    summary: 'Delegate card-funding signing for a wallet to a custodied key (three legs: two signed retries)',
    headers: ['walletSignature', 'requestId'],
    body: DelegatedKeyCreateRequest,
    success: { 201: DelegatedKey, 202: SignedRetryChallenge },
    errors: [404, 409],
  }),
  operation({
    operationId: 'listDelegatedKeys',
    method: 'get',
    path: '/auth/delegated-keys',
    tags: TAGS,
    summary: 'Delegated keys of a wallet account and/or card funding source (PENDING and REVOKED included)',
    query: { accountId: Type.Optional(Type.String()), fundingSourceId: Type.Optional(Type.String()) },
    success: { 200: List('DelegatedKeyListResponse', DelegatedKey) },
  }),
  operation({
    operationId: 'getDelegatedKeyById',
    method: 'get',
    path: '/auth/delegated-keys/{id}',
    tags: TAGS,
    summary: 'Read a delegated key',
    pathParams: id,
    success: { 200: DelegatedKey },
    errors: [404],
  }),
  operation({
    operationId: 'revokeDelegatedKey',
    method: 'delete',
    path: '/auth/delegated-keys/{id}',
    tags: TAGS,
    summary: 'Revoke an ACTIVE delegated key (400 when it is not ACTIVE)',
    pathParams: id,
    success: { 204: null },
    errors: [404],
  }),
];
