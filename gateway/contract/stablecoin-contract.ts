import { Type } from '@sinclair/typebox';
import {
  BURN_RAILS,
  GRID_OPERATIONS_STATUSES,
  ISSUANCE_STATUSES,
  PROVIDER_ACCOUNT_STATUSES,
  PROVIDER_ENVIRONMENTS,
  STABLECOIN_NETWORKS,
  STABLECOIN_OPERATION_STATUSES,
  STABLECOIN_OPERATION_TYPES,
  STABLECOIN_PROVIDERS,
} from '../../lib/contract/stablecoin-types';
import { Page, pageQuery } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, DateTime, Id, named, StringEnum } from './schema-kit';

const TAGS = ['Stablecoins'];
const Provider = StringEnum(STABLECOIN_PROVIDERS);
const Environment = StringEnum(PROVIDER_ENVIRONMENTS, {
  description: 'Follows the platform mode (sandbox or production)',
});
const TokenAmount = Type.String({
  pattern: '^[0-9]+$',
  maxLength: 40,
  description: "In the stablecoin's smallest unit; must convert exactly to a whole fiat cent",
});
const Description = Type.Optional(Type.String({ maxLength: 1024 }));

export const StablecoinProviderAccount = named(
  'StablecoinProviderAccount',
  ClosedObject({
    id: Id('StablecoinProviderAccount'),
    provider: Provider,
    providerAccountId: Type.String(),
    providerEnvironment: Environment,
    status: StringEnum(PROVIDER_ACCOUNT_STATUSES),
    lastVerifiedAt: Type.Optional(DateTime()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

export const Stablecoin = named(
  'Stablecoin',
  ClosedObject({
    id: Id('Stablecoin'),
    name: Type.String(),
    symbol: Type.String(),
    baseCurrency: Type.String(),
    network: StringEnum(STABLECOIN_NETWORKS),
    decimals: Type.Integer({ minimum: 0 }),
    issuanceStatus: StringEnum(ISSUANCE_STATUSES),
    gridOperationsStatus: StringEnum(GRID_OPERATIONS_STATUSES),
    networkTokenIdentifier: Type.String(),
    currency: Type.Optional(Type.String()),
    provider: Provider,
    stablecoinProviderAccountId: Id('StablecoinProviderAccount'),
    providerEnvironment: Environment,
    providerTokenIdentifier: Type.String(),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

const OperationSource = ClosedObject({
  type: StringEnum(
    [
      'WIRE',
      'ACH_DEBIT',
      'SAME_DAY_ACH_DEBIT',
      'EXTERNAL_ACCOUNT',
      'GRID_INTERNAL_ACCOUNT',
      'PROVIDER_INTERNAL_BALANCE',
    ] as const,
  ),
  externalAccountId: Type.Optional(Type.String()),
  accountId: Type.Optional(Type.String()),
  sourceTokenIdentifier: Type.Optional(Type.String()),
  cryptoNetwork: Type.Optional(Type.String()),
});

export const StablecoinOperation = named(
  'StablecoinOperation',
  ClosedObject({
    id: Id('StablecoinOperation'),
    stablecoinId: Id('Stablecoin'),
    operationType: StringEnum(STABLECOIN_OPERATION_TYPES),
    status: StringEnum(STABLECOIN_OPERATION_STATUSES),
    amount: Type.String({ pattern: '^[0-9]+$' }),
    provider: Provider,
    providerEnvironment: Environment,
    stablecoinProviderAccountId: Id('StablecoinProviderAccount'),
    source: Type.Optional(OperationSource),
    fundingInstructions: Type.Optional(
      Type.Object({
        rail: Type.Optional(Type.String()),
        network: Type.Optional(Type.String()),
        address: Type.Optional(Type.String()),
        valueType: Type.Optional(Type.String()),
      }, { additionalProperties: true }),
    ),
    destination: Type.Optional(ClosedObject({ accountId: Type.String(), rail: Type.Optional(StringEnum(BURN_RAILS)) })),
    estimatedDelivery: Type.Optional(
      Type.Object({ rail: Type.String(), amount: Type.String(), currency: Type.String(), timing: Type.String() }, {
        additionalProperties: true,
      }),
    ),
    expiresAt: Type.Optional(DateTime()),
    providerStatus: Type.Optional(Type.String()),
    failureReason: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

const LinkRequest = named(
  'StablecoinProviderAccountLinkRequest',
  ClosedObject({
    provider: Provider,
    apiClientId: Type.String({ minLength: 1, maxLength: 255 }),
    apiClientSecret: Type.String({ minLength: 1, maxLength: 1024, writeOnly: true }),
    providerAccountId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  }),
);

const RegisterRequest = named(
  'StablecoinRegisterRequest',
  ClosedObject({
    providerTokenIdentifier: Type.String({ minLength: 1, maxLength: 64 }),
    networkTokenIdentifier: Type.String({ minLength: 1, maxLength: 255 }),
    network: StringEnum(STABLECOIN_NETWORKS),
    stablecoinProviderAccountId: Type.Optional(Id('StablecoinProviderAccount')),
  }),
);

const MintFundingSource = Type.Union([
  ClosedObject({ type: Type.Literal('WIRE') }),
  ClosedObject({ type: Type.Literal('ACH_DEBIT'), externalAccountId: Id('ExternalAccount') }),
  ClosedObject({ type: Type.Literal('SAME_DAY_ACH_DEBIT'), externalAccountId: Id('ExternalAccount') }),
  ClosedObject({ type: Type.Literal('GRID_INTERNAL_ACCOUNT'), accountId: Id('InternalAccount') }),
  ClosedObject({
    type: Type.Literal('PROVIDER_INTERNAL_BALANCE'),
    sourceTokenIdentifier: Type.String({ minLength: 1 }),
    cryptoNetwork: Type.String({ minLength: 1 }),
  }),
]);

const MintRequest = named(
  'StablecoinMintRequest',
  ClosedObject({
    amount: TokenAmount,
    fundingSource: MintFundingSource,
    destination: ClosedObject({ accountId: Type.String({ pattern: '^(ExternalAccount|InternalAccount):' }) }),
    description: Description,
  }),
);

const BurnSource = Type.Union([
  ClosedObject({ type: Type.Literal('EXTERNAL_ACCOUNT') }),
  ClosedObject({ type: Type.Literal('GRID_INTERNAL_ACCOUNT'), accountId: Id('InternalAccount') }),
  ClosedObject({ type: Type.Literal('PROVIDER_INTERNAL_BALANCE') }),
]);

const BurnRequest = named(
  'StablecoinBurnRequest',
  ClosedObject({
    amount: TokenAmount,
    source: BurnSource,
    destination: ClosedObject({
      type: Type.Literal('EXTERNAL_ACCOUNT'),
      externalAccountId: Id('ExternalAccount'),
      rail: StringEnum(BURN_RAILS),
    }),
    description: Description,
  }),
);

const stablecoinId = { stablecoinId: Type.String() };

export const stablecoinOperations = [
  operation({
    operationId: 'linkStablecoinProviderAccount',
    method: 'post',
    path: '/stablecoin-provider-accounts',
    tags: TAGS,
    summary: 'Link provider API credentials (verified with the provider; the secret is sealed and never returned)',
    headers: ['idempotencyKey'],
    body: LinkRequest,
    success: { 201: StablecoinProviderAccount },
    errors: [409],
  }),
  operation({
    operationId: 'listStablecoinProviderAccounts',
    method: 'get',
    path: '/stablecoin-provider-accounts',
    tags: TAGS,
    summary: 'List provider account links',
    query: {
      provider: Type.Optional(Provider),
      status: Type.Optional(StringEnum(PROVIDER_ACCOUNT_STATUSES)),
      ...pageQuery,
    },
    success: { 200: Page('StablecoinProviderAccountListResponse', StablecoinProviderAccount) },
  }),
  operation({
    operationId: 'getStablecoinProviderAccount',
    method: 'get',
    path: '/stablecoin-provider-accounts/{stablecoinProviderAccountId}',
    tags: TAGS,
    summary: 'A provider account link, its credentials re-verified when last checked long ago',
    pathParams: { stablecoinProviderAccountId: Type.String() },
    success: { 200: StablecoinProviderAccount },
    errors: [404],
  }),
  operation({
    operationId: 'registerStablecoin',
    method: 'post',
    path: '/stablecoins',
    tags: TAGS,
    summary: 'Register a token the provider already issues',
    headers: ['idempotencyKey'],
    body: RegisterRequest,
    success: { 201: Stablecoin },
    errors: [404, 409],
  }),
  operation({
    operationId: 'listStablecoins',
    method: 'get',
    path: '/stablecoins',
    tags: TAGS,
    summary: 'List registered stablecoins',
    query: {
      issuanceStatus: Type.Optional(StringEnum(ISSUANCE_STATUSES)),
      gridOperationsStatus: Type.Optional(StringEnum(GRID_OPERATIONS_STATUSES)),
      provider: Type.Optional(Provider),
      ...pageQuery,
    },
    success: { 200: Page('StablecoinListResponse', Stablecoin) },
  }),
  operation({
    operationId: 'getStablecoin',
    method: 'get',
    path: '/stablecoins/{stablecoinId}',
    tags: TAGS,
    summary: 'A registered stablecoin',
    pathParams: stablecoinId,
    success: { 200: Stablecoin },
    errors: [404],
  }),
  operation({
    operationId: 'createStablecoinMint',
    method: 'post',
    path: '/stablecoins/{stablecoinId}/mints',
    tags: TAGS,
    summary: 'Mint through the provider',
    pathParams: stablecoinId,
    headers: ['idempotencyKey'],
    body: MintRequest,
    success: { 201: StablecoinOperation },
    errors: [404, 409],
  }),
  operation({
    operationId: 'createStablecoinBurn',
    method: 'post',
    path: '/stablecoins/{stablecoinId}/burns',
    tags: TAGS,
    summary: 'Burn (redeem to a bank account) through the provider',
    pathParams: stablecoinId,
    headers: ['idempotencyKey'],
    body: BurnRequest,
    success: { 201: StablecoinOperation },
    errors: [404, 409],
  }),
  operation({
    operationId: 'listStablecoinOperations',
    method: 'get',
    path: '/stablecoins/{stablecoinId}/operations',
    tags: TAGS,
    summary: 'Mints and burns of a stablecoin, most recent first',
    pathParams: stablecoinId,
    query: { operationType: Type.Optional(StringEnum(STABLECOIN_OPERATION_TYPES)), ...pageQuery },
    success: { 200: Page('StablecoinOperationListResponse', StablecoinOperation) },
    errors: [404],
  }),
  operation({
    operationId: 'getStablecoinOperation',
    method: 'get',
    path: '/stablecoin-operations/{stablecoinOperationId}',
    tags: TAGS,
    summary: 'A mint or burn',
    pathParams: { stablecoinOperationId: Type.String() },
    success: { 200: StablecoinOperation },
    errors: [404],
  }),
];
