import { Type } from '@sinclair/typebox';
import { INTERNAL_ACCOUNT_TYPES } from '../../lib/contract/account-vocabulary';
import { ExternalAccount, ExternalAccountCreateRequest, InternalAccount } from './account-contract';
import { Page, pageQuery } from './common-schemas';
import { operation } from './operation';
import {
  Quote,
  QuoteRequest,
  Transaction,
  transactionFilters,
  TransactionOneOf,
  TransferInRequest,
  TransferOutRequest,
} from './payment-contract';
import { ClosedObject, DateTime, Id, MinorUnits, named, Nullable, StringEnum } from './schema-kit';

const PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
] as const;
const MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const;
const ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const;
const ACTION_TYPES = ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] as const;

const Code = Type.String({ minLength: 3, maxLength: 10, pattern: '^[A-Z]{3,10}$', description: 'Currency code' });
const Amount = (description: string) => MinorUnits({ minimum: 0, description: `${description}, in minor units` });
const Opt = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));

const spendingLimitMembers = {
  dailyLimit: Opt(Amount('Most the agent may spend per UTC day; null for no limit')),
  dailyTransactionLimit: Type.Optional(Type.Integer({ minimum: 0, description: 'Most payments per UTC day' })),
  monthlyLimit: Opt(Amount('Most the agent may spend per UTC month; null for no limit')),
};

export const AgentAccountRule = named(
  'AgentAccountRule',
  Type.Object({
    accountId: Type.String({ minLength: 1, description: 'The internal account this rule overrides the policy for' }),
    executionMode: Type.Optional(StringEnum(MODES)),
    perTransactionLimit: Opt(Amount('Per-payment limit for this account; null inherits')),
  }),
);

const AgentAccountRestrictions = named(
  'AgentAccountRestrictions',
  Type.Object({
    allowedAccountIds: Opt(
      Type.Array(Type.String(), {
        description: "The only internal accounts the agent may use; null for all of the customer's",
      }),
    ),
    accountRules: Type.Optional(Type.Array(AgentAccountRule)),
  }),
);

export const AgentApprovalThresholds = named(
  'AgentApprovalThresholds',
  Type.Object({
    currency: Type.Optional(Code),
    amount: Opt(Amount("Payments above this need the platform's approval even in AUTO; null for none")),
  }),
);

export const AgentPolicy = named(
  'AgentPolicy',
  Type.Object({
    permissions: Type.Array(StringEnum(PERMISSIONS)),
    defaultExecutionMode: StringEnum(MODES),
    spendingLimits: named(
      'AgentSpendingLimits',
      Type.Object({
        currency: Code,
        perTransactionLimit: Amount('Most one payment may move'),
        ...spendingLimitMembers,
      }),
    ),
    accountRestrictions: Type.Optional(AgentAccountRestrictions),
    approvalThresholds: Type.Optional(AgentApprovalThresholds),
  }),
);

const AgentPolicyUpdateRequest = named(
  'AgentPolicyUpdateRequest',
  Type.Object({
    permissions: Type.Optional(Type.Array(StringEnum(PERMISSIONS), { description: 'Replaces the whole list' })),
    defaultExecutionMode: Type.Optional(StringEnum(MODES)),
    spendingLimits: Type.Optional(named(
      'AgentSpendingLimitsUpdate',
      Type.Object({
        currency: Type.Optional(Code),
        perTransactionLimit: Type.Optional(Amount('Most one payment may move')),
        ...spendingLimitMembers,
      }),
    )),
    accountRestrictions: Type.Optional(AgentAccountRestrictions),
    approvalThresholds: Type.Optional(AgentApprovalThresholds),
  }),
);

const AgentUsage = named(
  'AgentUsage',
  ClosedObject({
    dailyTransactionCount: Type.Integer({ minimum: 0 }),
    dailySpend: Type.Integer({
      minimum: 0,
      description: "Today (UTC), in minor units of the limits' currency; pending approvals included",
    }),
    dailyResetDate: Type.String({ format: 'date' }),
    monthlySpend: Type.Integer({ minimum: 0 }),
    monthlyResetMonth: Type.String({ pattern: '^\\d{4}-\\d{2}$' }),
  }),
);

export const Agent = named(
  'Agent',
  ClosedObject({
    id: Id('Agent'),
    name: Type.String(),
    customerId: Id('Customer'),
    isPaused: Type.Boolean(),
    isConnected: Type.Boolean({ description: 'Whether a device code of the agent was redeemed' }),
    policy: AgentPolicy,
    usage: AgentUsage,
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

const AgentDeviceCode = named(
  'AgentDeviceCode',
  ClosedObject({
    code: Type.String({ description: 'What the agent software is given to redeem; shown once' }),
    agentId: Id('Agent'),
    expiresAt: DateTime(),
    redeemed: Type.Boolean(),
  }),
);

const AgentTransferDetails = named(
  'AgentTransferDetails',
  ClosedObject({
    amount: MinorUnits({ minimum: 0 }),
    currency: Type.String(),
    sourceAccountId: Type.String(),
    destinationAccountId: Type.String(),
  }),
);

export const AgentAction = named(
  'AgentAction',
  ClosedObject({
    id: Id('AgentAction'),
    agentId: Id('Agent'),
    customerId: Type.String(),
    platformCustomerId: Type.String(),
    status: StringEnum(ACTION_STATUSES),
    type: StringEnum(ACTION_TYPES),
    quote: Type.Optional(Quote),
    transferDetails: Type.Optional(AgentTransferDetails),
    transaction: Type.Optional(Transaction),
    rejectionReason: Type.Optional(Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

const AgentActionList = Page('AgentActionList', AgentAction);
const agentId = { agentId: Type.String({ description: 'Agent id' }) };
const actionId = { actionId: Type.String({ description: 'Agent action id' }) };
const code = { code: Type.String({ description: 'The device code' }) };
const dateQuery = (what: string) =>
  Type.Optional(Type.String({ format: 'date-time', description: `${what} (inclusive)` }));
const MANAGEMENT = ['Agent Management'];
const OPERATIONS = ['Agent Operations'];

export const agentManagementOperations = [
  operation({
    operationId: 'createAgent',
    method: 'post',
    path: '/agents',
    tags: MANAGEMENT,
    summary: 'Create an agent for a customer; answers its first device code',
    body: named(
      'AgentCreateRequest',
      Type.Object({
        name: Type.String({ minLength: 1, maxLength: 200 }),
        customerId: Id('Customer'),
        policy: AgentPolicy,
      }),
    ),
    success: { 201: named('AgentCreateResponse', ClosedObject({ agent: Agent, deviceCode: AgentDeviceCode })) },
    errors: [410],
  }),
  operation({
    operationId: 'listAgents',
    method: 'get',
    path: '/agents',
    tags: MANAGEMENT,
    summary: "List the platform's agents",
    query: {
      customerId: Type.Optional(Type.String()),
      isPaused: Type.Optional(StringEnum(['true', 'false'] as const)),
      isConnected: Type.Optional(StringEnum(['true', 'false'] as const)),
      createdAfter: dateQuery('Created at or after'),
      createdBefore: dateQuery('Created at or before'),
      updatedAfter: dateQuery('Updated at or after'),
      updatedBefore: dateQuery('Updated at or before'),
      ...pageQuery,
    },
    success: { 200: Page('AgentList', Agent) },
  }),
  operation({
    operationId: 'listAgentApprovals',
    method: 'get',
    path: '/agents/approvals',
    tags: MANAGEMENT,
    summary: "Agent actions waiting for the platform's approval",
    query: {
      agentId: Type.Optional(Type.String()),
      customerId: Type.Optional(Type.String()),
      startDate: dateQuery('Submitted at or after'),
      endDate: dateQuery('Submitted at or before'),
      sortOrder: Type.Optional(StringEnum(['asc', 'desc'] as const)),
      ...pageQuery,
    },
    success: { 200: AgentActionList },
  }),
  operation({
    operationId: 'getAgentById',
    method: 'get',
    path: '/agents/{agentId}',
    tags: MANAGEMENT,
    summary: 'Read an agent',
    pathParams: agentId,
    success: { 200: Agent },
    errors: [404],
  }),
  operation({
    operationId: 'updateAgent',
    method: 'patch',
    path: '/agents/{agentId}',
    tags: MANAGEMENT,
    summary: 'Rename, pause or resume an agent (paused: refused at once)',
    pathParams: agentId,
    body: named(
      'AgentUpdateRequest',
      Type.Object({
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        isPaused: Type.Optional(Type.Boolean()),
      }),
    ),
    success: { 200: Agent },
    errors: [404],
  }),
  operation({
    operationId: 'deleteAgent',
    method: 'delete',
    path: '/agents/{agentId}',
    tags: MANAGEMENT,
    summary: 'Delete an agent; its token stops working at once',
    pathParams: agentId,
    success: { 204: null },
    errors: [404],
  }),
  operation({
    operationId: 'updateAgentPolicy',
    method: 'patch',
    path: '/agents/{agentId}/policy',
    tags: MANAGEMENT,
    summary: "Change part of an agent's policy, effective at once",
    pathParams: agentId,
    body: AgentPolicyUpdateRequest,
    success: { 200: Agent },
    errors: [404],
  }),
  operation({
    operationId: 'regenerateAgentDeviceCode',
    method: 'post',
    path: '/agents/{agentId}/device-codes',
    tags: MANAGEMENT,
    summary: 'A new device code; older unredeemed ones stop working',
    pathParams: agentId,
    success: { 201: AgentDeviceCode },
    errors: [404, 409],
  }),
  operation({
    operationId: 'approveAgentAction',
    method: 'post',
    path: '/agents/{agentId}/actions/{actionId}/approve',
    tags: MANAGEMENT,
    summary: 'Approve a pending action: it executes once',
    pathParams: { ...agentId, ...actionId },
    success: { 200: AgentAction },
    errors: [404, 409],
  }),
  operation({
    operationId: 'rejectAgentAction',
    method: 'post',
    path: '/agents/{agentId}/actions/{actionId}/reject',
    tags: MANAGEMENT,
    summary: 'Reject a pending action: nothing executes',
    pathParams: { ...agentId, ...actionId },
    optionalBody: true,
    body: named('AgentActionRejectRequest', Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) })),
    success: { 200: AgentAction },
    errors: [404, 409],
  }),
  operation({
    operationId: 'getAgentDeviceCodeStatus',
    method: 'get',
    path: '/agents/device-codes/{code}/status',
    tags: MANAGEMENT,
    summary: 'Whether a device code was redeemed',
    pathParams: code,
    success: {
      200: named('AgentDeviceCodeStatusResponse', ClosedObject({ code: Type.String(), redeemed: Type.Boolean() })),
    },
    errors: [404],
  }),
  operation({
    operationId: 'redeemAgentDeviceCode',
    method: 'post',
    path: '/agents/device-codes/{code}/redeem',
    tags: MANAGEMENT,
    authenticated: false,
    summary: 'Redeem a device code (no credentials: the code is the proof); answers the access token once',
    pathParams: code,
    success: {
      200: named(
        'AgentDeviceCodeRedeemResponse',
        ClosedObject({
          agentId: Id('Agent'),
          agentName: Type.String(),
          accessToken: Type.String(),
          policy: AgentPolicy,
        }),
      ),
    },
    errors: [400, 404, 429],
  }),
];

const quoteId = { quoteId: Type.String({ description: 'Quote id' }) };
const externalAccountId = { externalAccountId: Type.String({ description: 'External account id' }) };

export const agentOperationOperations = [
  operation({
    operationId: 'getAgentMe',
    method: 'get',
    path: '/agents/me',
    tags: OPERATIONS,
    agentAuth: { allowPaused: true },
    summary: 'The agent itself: profile, policy and usage',
    success: { 200: Agent },
  }),
  operation({
    operationId: 'agentListTransactions',
    method: 'get',
    path: '/agents/me/transactions',
    tags: OPERATIONS,
    agentAuth: { permission: 'VIEW_TRANSACTIONS' },
    summary: "The customer's transactions",
    query: {
      ...transactionFilters,
    },
    success: { 200: Page('AgentTransactionList', TransactionOneOf) },
    errors: [403, 409],
  }),
  operation({
    operationId: 'agentGetTransaction',
    method: 'get',
    path: '/agents/me/transactions/{transactionId}',
    tags: OPERATIONS,
    agentAuth: { permission: 'VIEW_TRANSACTIONS' },
    summary: "One of the customer's transactions",
    pathParams: { transactionId: Type.String() },
    success: { 200: TransactionOneOf },
    errors: [403, 404, 409],
  }),
  operation({
    operationId: 'agentCreateQuote',
    method: 'post',
    path: '/agents/me/quotes',
    tags: OPERATIONS,
    agentAuth: { permission: 'CREATE_QUOTES' },
    summary: 'Quote a payment of the customer',
    headers: ['idempotencyKey'],
    body: QuoteRequest,
    success: { 201: Quote },
    errors: [403, 404, 409, 412, 424],
  }),
  operation({
    operationId: 'agentGetQuote',
    method: 'get',
    path: '/agents/me/quotes/{quoteId}',
    tags: OPERATIONS,
    agentAuth: {},
    // 409 SCA_SESSION_REQUIRED: an SCA customer's quote from before the window without a live SCA session
    // (docs/api/sca.md).
    summary: 'A quote this agent created',
    pathParams: quoteId,
    success: { 200: Quote },
    errors: [404, 409],
  }),
  operation({
    operationId: 'agentExecuteQuote',
    method: 'post',
    path: '/agents/me/quotes/{quoteId}/execute',
    tags: OPERATIONS,
    agentAuth: { permission: 'EXECUTE_QUOTES' },
    summary: 'Execute a quote within the policy: at once, or after the platform approves',
    pathParams: quoteId,
    headers: ['idempotencyKey'],
    optionalBody: true,
    body: Type.Object({}),
    success: { 200: AgentAction },
    errors: [403, 404, 409],
  }),
  operation({
    operationId: 'agentListActions',
    method: 'get',
    path: '/agents/me/actions',
    tags: OPERATIONS,
    agentAuth: {},
    summary: "The agent's own actions, newest first",
    query: { status: Type.Optional(StringEnum(ACTION_STATUSES)), ...pageQuery },
    success: { 200: AgentActionList },
  }),
  operation({
    operationId: 'agentGetAction',
    method: 'get',
    path: '/agents/me/actions/{actionId}',
    tags: OPERATIONS,
    agentAuth: {},
    summary: "One of the agent's actions",
    pathParams: actionId,
    success: { 200: AgentAction },
    errors: [404],
  }),
  operation({
    operationId: 'agentCreateTransferIn',
    method: 'post',
    path: '/agents/me/transfer-in',
    tags: OPERATIONS,
    agentAuth: { permission: 'CREATE_TRANSFERS' },
    summary: "Pull from the customer's external account into its internal one",
    headers: ['idempotencyKey'],
    body: TransferInRequest,
    success: { 201: AgentAction },
    errors: [403, 404, 409],
  }),
  operation({
    operationId: 'agentCreateTransferOut',
    method: 'post',
    path: '/agents/me/transfer-out',
    tags: OPERATIONS,
    agentAuth: { permission: 'CREATE_TRANSFERS' },
    summary: "Pay from the customer's internal account to its external one",
    headers: ['idempotencyKey'],
    body: TransferOutRequest,
    success: { 201: AgentAction },
    errors: [403, 404, 409],
  }),
  operation({
    operationId: 'agentListInternalAccounts',
    method: 'get',
    path: '/agents/me/internal-accounts',
    tags: OPERATIONS,
    agentAuth: {},
    summary: "The customer's internal accounts",
    query: {
      currency: Type.Optional(Type.String()),
      type: Type.Optional(StringEnum(INTERNAL_ACCOUNT_TYPES)),
      ...pageQuery,
    },
    success: { 200: Page('AgentInternalAccountList', InternalAccount) },
  }),
  operation({
    operationId: 'agentListExternalAccounts',
    method: 'get',
    path: '/agents/me/external-accounts',
    tags: OPERATIONS,
    agentAuth: { permission: 'MANAGE_EXTERNAL_ACCOUNTS' },
    summary: "The customer's external accounts",
    query: { currency: Type.Optional(Type.String()), ...pageQuery },
    success: { 200: Page('AgentExternalAccountList', ExternalAccount) },
    errors: [403],
  }),
  operation({
    operationId: 'agentCreateExternalAccount',
    method: 'post',
    path: '/agents/me/external-accounts',
    tags: OPERATIONS,
    agentAuth: { permission: 'MANAGE_EXTERNAL_ACCOUNTS' },
    summary: 'Add an external account of the customer (customerId may be left out)',
    body: ExternalAccountCreateRequest,
    success: { 201: ExternalAccount },
    errors: [403, 404, 409],
  }),
  operation({
    operationId: 'agentGetExternalAccount',
    method: 'get',
    path: '/agents/me/external-accounts/{externalAccountId}',
    tags: OPERATIONS,
    agentAuth: { permission: 'MANAGE_EXTERNAL_ACCOUNTS' },
    summary: "One of the customer's external accounts",
    pathParams: externalAccountId,
    success: { 200: ExternalAccount },
    errors: [403, 404],
  }),
  operation({
    operationId: 'agentDeleteExternalAccount',
    method: 'delete',
    path: '/agents/me/external-accounts/{externalAccountId}',
    tags: OPERATIONS,
    agentAuth: { permission: 'MANAGE_EXTERNAL_ACCOUNTS' },
    summary: "Delete one of the customer's external accounts",
    pathParams: externalAccountId,
    success: { 204: null },
    errors: [403, 404],
  }),
];
