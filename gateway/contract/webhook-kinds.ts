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

function kind(name: string, summary: string, schemaName: string, types: readonly string[], data: TSchema | undefined, extension = false): WebhookKind {
  const body = named(schemaName, ClosedObject({
    id: Type.String({ description: 'Webhook:<uuid>, the same on every retry (also the `webhook-id` header): de-duplicate by it' }),
    type: StringEnum(types),
    timestamp: DateTime({ description: 'When this attempt was sent' }),
    ...(data ? { data } : { data: Type.Optional(Type.Object({})) }),
  }));
  return { name, summary, types, body, extension };
}

const ref = REFERENCE_WEBHOOK_TYPES;
const ext = EXTENSION_WEBHOOK_TYPES;

const CustomerNotice = named('CustomerNotice', ClosedObject({
  customerId: Type.String(), platformCustomerId: Type.Optional(Type.String()), customerType: Type.Optional(Type.String()),
  currencies: Type.Optional(Type.Array(Type.String())), changedFields: Type.Optional(Type.Array(Type.String())),
}, { description: 'CUSTOMER.CREATED: the new customer\'s ids, type and currencies; CUSTOMER.UPDATED: the members changed; CUSTOMER.DELETED: the ids' }));
const ExternalAccountDeleted = named('ExternalAccountDeleted', ClosedObject({ accountId: Type.String(), customerId: Type.Optional(Type.String()) }));
const PlatformConfigNotice = named('PlatformConfigUpdated', ClosedObject({ platformId: Type.String(), changedFields: Type.Array(Type.String()) }));

/** The reference's IncomingPaymentWebhookData: the Transaction, plus on an approval webhook the fields asked about the recipient. */
const IncomingPaymentWebhookData = named('IncomingPaymentWebhookData', ClosedObject({
  ...Transaction.properties,
  requestedReceiverCustomerInfoFields: Type.Optional(Type.Array(CounterpartyField, {
    description: 'INCOMING_PAYMENT.PENDING on an approval rail: what the sender\'s VASP asks about the recipient; a 200 answer approving must carry them in `receiverCustomerInfo`',
  })),
}));

/** Every kind we send, the reference's first. */
export const WEBHOOK_KINDS: readonly WebhookKind[] = [
  kind('outgoing-payment', 'An outgoing payment changed status', 'OutgoingPaymentWebhook', withPrefix('OUTGOING_PAYMENT.', ref), Transaction),
  kind('incoming-payment', 'An incoming payment changed status', 'IncomingPaymentWebhook', withPrefix('INCOMING_PAYMENT.', ref), IncomingPaymentWebhookData),
  kind('test-webhook', 'The sandbox test webhook (POST /sandbox/webhooks/test)', 'TestWebhook', ['TEST'], undefined),
  kind('bulk-upload', 'A bulk customer import finished', 'BulkUploadWebhook', withPrefix('BULK_UPLOAD.', ref), ImportJob),
  kind('invitation-claimed', 'An UMA invitation was claimed', 'InvitationClaimedWebhook', withPrefix('INVITATION.', ref), UmaInvitation),
  kind('customer-update', 'A customer\'s KYC or KYB status changed', 'CustomerWebhook', ref.filter((t) => /^CUSTOMER\.KY[CB]_/.test(t)), Customer),
  kind('internal-account-status', 'An internal account\'s balance, status or funding instructions changed', 'InternalAccountStatusWebhook', withPrefix('INTERNAL_ACCOUNT.', ref), InternalAccount),
  kind('external-account-status', 'An external account\'s status changed', 'ExternalAccountStatusWebhook', withPrefix('EXTERNAL_ACCOUNT.', ref), ExternalAccount),
  kind('verification-update', 'A KYC/KYB verification changed status', 'VerificationWebhook', withPrefix('VERIFICATION.', ref), Verification),
  kind('card-state-change', 'A card\'s lifecycle state changed', 'CardStateChangeWebhook', ['CARD.STATE_CHANGE'], Card),
  kind('card-funding-source-change', 'A card\'s funding sources were replaced', 'CardFundingSourceChangeWebhook', ['CARD.FUNDING_SOURCE_CHANGE'], Card),
  kind('card-transaction', 'A card transaction changed status', 'CardTransactionWebhook', withPrefix('CARD_TRANSACTION.', ref), CardTransaction),
  kind('agent-action', 'An agent\'s action waits for the platform\'s approval', 'AgentActionWebhook', withPrefix('AGENT_ACTION.', ref), AgentAction),
  kind('customer-lifecycle', 'Extension: a customer was created, updated or deleted', 'CustomerLifecycleWebhook', withPrefix('CUSTOMER.', ext), CustomerNotice, true),
  kind('internal-account-created', 'Extension: an internal account was opened', 'InternalAccountCreatedWebhook', withPrefix('INTERNAL_ACCOUNT.', ext), InternalAccount, true),
  kind('external-account-created', 'Extension: an external account was added', 'ExternalAccountCreatedWebhook', ['EXTERNAL_ACCOUNT.CREATED'], ExternalAccount, true),
  kind('external-account-deleted', 'Extension: an external account was deleted', 'ExternalAccountDeletedWebhook', ['EXTERNAL_ACCOUNT.DELETED'], ExternalAccountDeleted, true),
  kind('quote', 'Extension: a quote was created, executed or expired', 'QuoteWebhook', withPrefix('QUOTE.', ext), Quote, true),
  kind('incoming-payment-expired', 'Extension: an incoming payment expired before it arrived', 'IncomingPaymentExpiredWebhook', withPrefix('INCOMING_PAYMENT.', ext), Transaction, true),
  kind('platform-config-updated', 'Extension: the platform configuration changed (the members named)', 'PlatformConfigUpdatedWebhook', withPrefix('PLATFORM.', ext), PlatformConfigNotice, true),
];

const byType = new Map(WEBHOOK_KINDS.flatMap((k) => k.types.map((t) => [t, k] as const)));

/** The kind our document describes for a type, or undefined when it describes none. */
export const webhookKindOf = (type: string): WebhookKind | undefined => byType.get(type);
