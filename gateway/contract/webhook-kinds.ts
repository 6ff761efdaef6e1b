import { Type, type TSchema } from '@sinclair/typebox';
import { EXTENSION_WEBHOOK_TYPES, REFERENCE_WEBHOOK_TYPES } from '../../lib/contract/webhook-types';
import { ExternalAccount, InternalAccount } from './account-contract';
import { AgentAction } from './agent-contract';
import { Card, CardTransaction } from './card-contract';
import { Customer, ImportJob } from './customer-contract';
import { UmaInvitation } from './invitation-contract';
import { Verification } from './kyc-contract';
import { Quote, Transaction } from './payment-contract';
import { CounterpartyField } from './platform-config-contract';
import { ClosedObject, DateTime, named, StringEnum } from './schema-kit';

/** One kind of webhook we send: its types and the record its `data` carries (rendered as in responses). */
export interface WebhookKind {
  /** The reference's name of the kind (`outgoing-payment`), or ours for an extension. */
  name: string;
  summary: string;
  types: readonly string[];
  /** The whole body: `{id, type, timestamp, data}`. */
  body: TSchema;
  /** Not in the reference: sent only to platforms that opted into its types (PATCH /config `webhookExtensionTypes`). */
  extension: boolean;
}

const withPrefix = (prefix: string, types: readonly string[]) => types.filter((t) => t.startsWith(prefix));

/** One kind's description: its body schema's name and the `data` it carries (none for the test webhook). */
interface WebhookKindSpec {
  name: string;
  summary: string;
  schemaName: string;
  types: readonly string[];
  data?: TSchema;
  extension?: boolean;
}

function kind({ name, summary, schemaName, types, data, extension = false }: WebhookKindSpec): WebhookKind {
  const body = named(
    schemaName,
    ClosedObject({
      id: Type.String({
        description: 'Webhook:<uuid>, the same on every retry (also the `webhook-id` header): de-duplicate by it',
      }),
      type: StringEnum(types),
      timestamp: DateTime({ description: 'When this attempt was sent' }),
      ...(data ? { data } : { data: Type.Optional(Type.Object({})) }),
    }),
  );
  return { name, summary, types, body, extension };
}

const ref = REFERENCE_WEBHOOK_TYPES;
const ext = EXTENSION_WEBHOOK_TYPES;

const CustomerNotice = named(
  'CustomerNotice',
  ClosedObject({
    customerId: Type.String(),
    platformCustomerId: Type.Optional(Type.String()),
    customerType: Type.Optional(Type.String()),
    currencies: Type.Optional(Type.Array(Type.String())),
    changedFields: Type.Optional(Type.Array(Type.String())),
  }, {
    description: "CUSTOMER.CREATED: the new customer's ids, type and currencies; "
      + 'CUSTOMER.UPDATED: the members changed; CUSTOMER.DELETED: the ids',
  }),
);
const ExternalAccountDeleted = named(
  'ExternalAccountDeleted',
  ClosedObject({ accountId: Type.String(), customerId: Type.Optional(Type.String()) }),
);
const PlatformConfigNotice = named(
  'PlatformConfigUpdated',
  ClosedObject({ platformId: Type.String(), changedFields: Type.Array(Type.String()) }),
);

/**
 * The reference's IncomingPaymentWebhookData: the Transaction, plus on an approval webhook the fields asked about the
 * recipient.
 */
const IncomingPaymentWebhookData = named(
  'IncomingPaymentWebhookData',
  ClosedObject({
    ...Transaction.properties,
    requestedReceiverCustomerInfoFields: Type.Optional(Type.Array(CounterpartyField, {
      description: "INCOMING_PAYMENT.PENDING on an approval rail: what the sender's VASP asks about "
        + 'the recipient; a 200 answer approving must carry them in `receiverCustomerInfo`',
    })),
  }),
);

/** Every kind we send, the reference's first. */
export const WEBHOOK_KINDS: readonly WebhookKind[] = [
  kind({
    name: 'outgoing-payment',
    summary: 'An outgoing payment changed status',
    schemaName: 'OutgoingPaymentWebhook',
    types: withPrefix('OUTGOING_PAYMENT.', ref),
    data: Transaction,
  }),
  kind({
    name: 'incoming-payment',
    summary: 'An incoming payment changed status',
    schemaName: 'IncomingPaymentWebhook',
    types: withPrefix('INCOMING_PAYMENT.', ref),
    data: IncomingPaymentWebhookData,
  }),
  kind({
    name: 'test-webhook',
    summary: 'The sandbox test webhook (POST /sandbox/webhooks/test)',
    schemaName: 'TestWebhook',
    types: ['TEST'],
  }),
  kind({
    name: 'bulk-upload',
    summary: 'A bulk customer import finished',
    schemaName: 'BulkUploadWebhook',
    types: withPrefix('BULK_UPLOAD.', ref),
    data: ImportJob,
  }),
  kind({
    name: 'invitation-claimed',
    summary: 'An UMA invitation was claimed',
    schemaName: 'InvitationClaimedWebhook',
    types: withPrefix('INVITATION.', ref),
    data: UmaInvitation,
  }),
  kind({
    name: 'customer-update',
    summary: "A customer's KYC or KYB status changed",
    schemaName: 'CustomerWebhook',
    types: ref.filter((t) => /^CUSTOMER\.KY[CB]_/.test(t)),
    data: Customer,
  }),
  kind({
    name: 'internal-account-status',
    summary: "An internal account's balance, status or funding instructions changed",
    schemaName: 'InternalAccountStatusWebhook',
    types: withPrefix('INTERNAL_ACCOUNT.', ref),
    data: InternalAccount,
  }),
  kind({
    name: 'external-account-status',
    summary: "An external account's status changed",
    schemaName: 'ExternalAccountStatusWebhook',
    types: withPrefix('EXTERNAL_ACCOUNT.', ref),
    data: ExternalAccount,
  }),
  kind({
    name: 'verification-update',
    summary: 'A KYC/KYB verification changed status',
    schemaName: 'VerificationWebhook',
    types: withPrefix('VERIFICATION.', ref),
    data: Verification,
  }),
  kind({
    name: 'card-state-change',
    summary: "A card's lifecycle state changed",
    schemaName: 'CardStateChangeWebhook',
    types: ['CARD.STATE_CHANGE'],
    data: Card,
  }),
  kind({
    name: 'card-funding-source-change',
    summary: "A card's funding sources were replaced",
    schemaName: 'CardFundingSourceChangeWebhook',
    types: ['CARD.FUNDING_SOURCE_CHANGE'],
    data: Card,
  }),
  kind({
    name: 'card-transaction',
    summary: 'A card transaction changed status',
    schemaName: 'CardTransactionWebhook',
    types: withPrefix('CARD_TRANSACTION.', ref),
    data: CardTransaction,
  }),
  kind({
    name: 'agent-action',
    summary: "An agent's action waits for the platform's approval",
    schemaName: 'AgentActionWebhook',
    types: withPrefix('AGENT_ACTION.', ref),
    data: AgentAction,
  }),
  kind({
    name: 'customer-lifecycle',
    summary: 'Extension: a customer was created, updated or deleted',
    schemaName: 'CustomerLifecycleWebhook',
    types: withPrefix('CUSTOMER.', ext),
    data: CustomerNotice,
    extension: true,
  }),
  kind({
    name: 'internal-account-created',
    summary: 'Extension: an internal account was opened',
    schemaName: 'InternalAccountCreatedWebhook',
    types: withPrefix('INTERNAL_ACCOUNT.', ext),
    data: InternalAccount,
    extension: true,
  }),
  kind({
    name: 'external-account-created',
    summary: 'Extension: an external account was added',
    schemaName: 'ExternalAccountCreatedWebhook',
    types: ['EXTERNAL_ACCOUNT.CREATED'],
    data: ExternalAccount,
    extension: true,
  }),
  kind({
    name: 'external-account-deleted',
    summary: 'Extension: an external account was deleted',
    schemaName: 'ExternalAccountDeletedWebhook',
    types: ['EXTERNAL_ACCOUNT.DELETED'],
    data: ExternalAccountDeleted,
    extension: true,
  }),
  kind({
    name: 'quote',
    summary: 'Extension: a quote was created, executed or expired',
    schemaName: 'QuoteWebhook',
    types: withPrefix('QUOTE.', ext),
    data: Quote,
    extension: true,
  }),
  kind({
    name: 'incoming-payment-expired',
    summary: 'Extension: an incoming payment expired before it arrived',
    schemaName: 'IncomingPaymentExpiredWebhook',
    types: withPrefix('INCOMING_PAYMENT.', ext),
    data: Transaction,
    extension: true,
  }),
  kind({
    name: 'platform-config-updated',
    summary: 'Extension: the platform configuration changed (the members named)',
    schemaName: 'PlatformConfigUpdatedWebhook',
    types: withPrefix('PLATFORM.', ext),
    data: PlatformConfigNotice,
    extension: true,
  }),
];

const byType = new Map(WEBHOOK_KINDS.flatMap((k) => k.types.map((t) => [t, k] as const)));

/** The kind our document describes for a type, or undefined when it describes none. */
export const webhookKindOf = (type: string): WebhookKind | undefined => byType.get(type);
