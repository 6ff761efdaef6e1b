import { Type } from '@sinclair/typebox';
import { INTERNAL_ACCOUNT_TYPES, OWNERSHIP_METHODS, OWNERSHIP_TYPES } from '../../lib/contract/account-vocabulary';
import { ExternalAccount, InternalAccount, PaymentInstructions } from '../../lib/contract/account-records';
import { ExternalAccountCreateInfo } from '../../lib/contract/external-account-info-schemas';
import { List, Page, pageQuery, Processing, SignedRetryChallenge } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, CurrencyCode, DateTime, Id, named, StringEnum } from './schema-kit';

/** The records live in lib/contract (the notifications service renders accounts for webhooks too). */
export { ExternalAccount, InternalAccount, PaymentInstructions };

const externalAccountCreateMembers = {
  currency: Type.String({ minLength: 1 }),
  platformAccountId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  ownershipType: Type.Optional(StringEnum(OWNERSHIP_TYPES)),
  accountInfo: ExternalAccountCreateInfo,
};

export const ExternalAccountCreateRequest = named(
  'ExternalAccountCreateRequest',
  Type.Object({
    customerId: Type.Optional(
      Id('Customer', { description: "The owning customer; absent for the platform's own account" }),
    ),
    defaultUmaDepositAccount: Type.Optional(Type.Boolean()),
    ...externalAccountCreateMembers,
  }),
);

const PlatformExternalAccountCreateRequest = named(
  'PlatformExternalAccountCreateRequest',
  Type.Object(externalAccountCreateMembers),
);

const OwnershipChallengeRequest = named(
  'OwnershipChallengeRequest',
  Type.Object({ method: StringEnum(OWNERSHIP_METHODS) }),
);

export const OwnershipChallenge = named(
  'OwnershipChallenge',
  Type.Union([
    ClosedObject({ method: Type.Literal('WALLET_SIGNATURE'), messageToSign: Type.String(), expiresAt: DateTime() }),
    ClosedObject({
      method: Type.Literal('LIVENESS'),
      verificationLink: Type.String({ format: 'uri' }),
      token: Type.Optional(Type.String()),
      expiresAt: DateTime(),
    }),
  ]),
);

const OwnershipVerifyRequest = named(
  'OwnershipVerifyRequest',
  Type.Object({
    signature: Type.String({ minLength: 1, maxLength: 1024 }),
    signatureScheme: Type.Optional(StringEnum(['bip137', 'electrum'] as const)),
  }),
);

export const WalletExport = named(
  'WalletExport',
  ClosedObject({ id: Id('InternalAccount'), encryptedWalletCredentials: Type.String() }),
);
const WalletExportRequest = named(
  'WalletExportRequest',
  Type.Object({ clientPublicKey: Type.Optional(Type.String()) }),
);
const InternalAccountUpdateRequest = named(
  'InternalAccountUpdateRequest',
  Type.Object({ privateEnabled: Type.Optional(Type.Boolean()) }),
);

const externalAccountId = { externalAccountId: Id('ExternalAccount') };

/** The same six operations for customers' and for the platform's own external accounts. */
function externalAccountOperations(owner: 'customers' | 'platform') {
  const base = `/${owner}/external-accounts`;
  const prefix = owner === 'customers' ? '' : 'Platform';
  const tags = ['External Accounts'];
  const listQuery = {
    ...(owner === 'customers' ? { customerId: Type.Optional(Id('Customer')) } : {}),
    currency: Type.Optional(CurrencyCode),
    ...pageQuery,
  };
  return [
    operation({
      operationId: `list${prefix}ExternalAccounts`,
      method: 'get',
      path: base,
      tags,
      summary: 'List external accounts',
      query: listQuery,
      success: { 200: Page(`${prefix}ExternalAccountList`, ExternalAccount) },
    }),
    operation({
      operationId: `create${prefix}ExternalAccount`,
      method: 'post',
      path: base,
      tags,
      summary: 'Add an external account',
      body: owner === 'customers' ? ExternalAccountCreateRequest : PlatformExternalAccountCreateRequest,
      validatedWithUseCase: true,
      success: { 201: ExternalAccount },
      errors: [404, 409, ...(owner === 'customers' ? [410] : [])],
    }),
    operation({
      operationId: `get${prefix}ExternalAccount`,
      method: 'get',
      path: `${base}/{externalAccountId}`,
      tags,
      summary: 'Read an external account',
      pathParams: externalAccountId,
      success: { 200: ExternalAccount },
      errors: [404],
    }),
    operation({
      operationId: `delete${prefix}ExternalAccount`,
      method: 'delete',
      path: `${base}/{externalAccountId}`,
      tags,
      summary: 'Delete an external account',
      pathParams: externalAccountId,
      success: { 204: null },
      errors: [404, 409],
    }),
    operation({
      operationId: `start${prefix}OwnershipChallenge`,
      method: 'post',
      path: `${base}/{externalAccountId}/challenge`,
      tags,
      summary: 'Start proving ownership of the account',
      pathParams: externalAccountId,
      body: OwnershipChallengeRequest,
      success: { 201: OwnershipChallenge },
      errors: [404, 409],
    }),
    operation({
      operationId: `verify${prefix}Ownership`,
      method: 'post',
      path: `${base}/{externalAccountId}/verify`,
      tags,
      summary: 'Prove ownership with a signature over the challenge',
      pathParams: externalAccountId,
      body: OwnershipVerifyRequest,
      success: { 200: ExternalAccount },
      errors: [404, 409],
    }),
  ];
}

const INTERNAL_TAGS = ['Internal Accounts'];
const walletOutcome = (success: number, record: ReturnType<typeof named>) => ({
  [success]: Type.Union([record, Processing]),
  202: SignedRetryChallenge,
});

export const accountOperations = [
  operation({
    operationId: 'listCustomerInternalAccounts',
    method: 'get',
    path: '/customers/internal-accounts',
    tags: INTERNAL_TAGS,
    summary: "List customers' internal accounts",
    query: {
      customerId: Type.Optional(Id('Customer')),
      currency: Type.Optional(CurrencyCode),
      type: Type.Optional(StringEnum(INTERNAL_ACCOUNT_TYPES)),
      ...pageQuery,
    },
    success: { 200: Page('InternalAccountList', InternalAccount) },
  }),
  operation({
    operationId: 'listPlatformInternalAccounts',
    method: 'get',
    path: '/platform/internal-accounts',
    tags: INTERNAL_TAGS,
    summary: "The platform's own internal accounts",
    query: { currency: Type.Optional(CurrencyCode), type: Type.Optional(StringEnum(INTERNAL_ACCOUNT_TYPES)) },
    success: { 200: List('PlatformInternalAccountList', InternalAccount) },
  }),
  operation({
    operationId: 'updateInternalAccount',
    method: 'patch',
    path: '/internal-accounts/{id}',
    tags: INTERNAL_TAGS,
    summary: "Turn an embedded wallet's privacy on or off (signed retry)",
    pathParams: { id: Id('InternalAccount') },
    headers: ['walletSignature', 'requestId'],
    body: InternalAccountUpdateRequest,
    success: walletOutcome(200, InternalAccount),
    errors: [404, 409],
  }),
  operation({
    operationId: 'exportWallet',
    method: 'post',
    path: '/internal-accounts/{id}/export',
    tags: INTERNAL_TAGS,
    summary: "Export an embedded wallet's credentials, encrypted to the client (signed retry)",
    pathParams: { id: Id('InternalAccount') },
    headers: ['walletSignature', 'requestId'],
    body: WalletExportRequest,
    success: walletOutcome(200, WalletExport),
    errors: [404, 409],
  }),
  ...externalAccountOperations('customers'),
  ...externalAccountOperations('platform'),
];
