import {
  isExtensionWebhookType,
  isReferenceWebhookType,
  REFERENCE_WEBHOOK_TYPES,
} from '../../../lib/contract/webhook-types';
import type { WebhookNotification } from '../domain/webhook-envelope';

/** The REST JSON of the resources a webhook carries, read as `GET` answers them (undefined: gone). */
export interface WebhookResources {
  internalAccount(platformId: string, id: string): Promise<object | undefined>;
  externalAccount(platformId: string, id: string): Promise<object | undefined>;
  customer(platformId: string, id: string): Promise<object | undefined>;
}

/** The extension types a platform opted into (PATCH /config `webhookExtensionTypes`). */
export interface WebhookSubscriptions {
  extensionTypesOf(platformId: string): Promise<readonly string[]>;
}

type Resource = 'internalAccount' | 'externalAccount';

/** Kinds whose event names the account and whose webhook carries the account as REST renders it. */
const ACCOUNT_RESOURCE: Record<string, Resource> = {
  'INTERNAL_ACCOUNT.BALANCE_UPDATED': 'internalAccount',
  'INTERNAL_ACCOUNT.STATUS_UPDATED': 'internalAccount',
  'INTERNAL_ACCOUNT.CREATED': 'internalAccount',
  'EXTERNAL_ACCOUNT.STATUS_UPDATED': 'externalAccount',
  'EXTERNAL_ACCOUNT.CREATED': 'externalAccount',
};

/** The reference's CustomerWebhook kinds (CUSTOMER.KYC_* and KYB_*): their data is the whole customer. */
const CUSTOMER_STATUS_TYPES = new Set<string>(REFERENCE_WEBHOOK_TYPES.filter((t) => t.startsWith('CUSTOMER.')));

/**
 * Which events a platform is sent (`isSent`: a reference type always; an extension type only when
 * the platform opted into it; anything else never) and with what data (`build`: account webhooks
 * carry the account read at this moment, rendered as `GET` renders it; an event carries only its
 * id). The recorder asks `isSent` and builds only for a platform that has an endpoint.
 */
export function createWebhookPayloads(deps: { resources: WebhookResources; subscriptions: WebhookSubscriptions }) {
  /**
   * The customer as GET /customers/{id} renders it (a business with its beneficial owners), with the
   * status and time the event reports (a later change has its own webhook); the event's own record
   * when the customer cannot be read.
   */
  async function customerPayload(notification: WebhookNotification): Promise<WebhookNotification> {
    const event = JSON.parse(notification.dataJson) as {
      id?: string;
      kycStatus?: string;
      kybStatus?: string;
      updatedAt?: string;
    };
    const customer = event.id ? await deps.resources.customer(notification.platformId, event.id) : undefined;
    if (!customer) return notification;
    const asOfEvent = Object.fromEntries(
      (['kycStatus', 'kybStatus', 'updatedAt'] as const).filter((k) => event[k] !== undefined).map((
        k,
      ) => [k, event[k]]),
    );
    return { ...notification, dataJson: JSON.stringify({ ...customer, ...asOfEvent }) };
  }

  /**
   * Whether the type is one a platform can be sent at all (a reference type, or an extension type it may opt into); no
   * read.
   */
  function isWebhookType(type: string): boolean {
    return isReferenceWebhookType(type) || isExtensionWebhookType(type);
  }

  async function isSent({ type, platformId }: WebhookNotification): Promise<boolean> {
    if (isReferenceWebhookType(type)) return true;
    return isExtensionWebhookType(type) && (await deps.subscriptions.extensionTypesOf(platformId)).includes(type);
  }

  /** The webhook of an event that is sent; undefined when the account it names is gone. */
  async function build(notification: WebhookNotification): Promise<WebhookNotification | undefined> {
    const { type, platformId } = notification;
    if (CUSTOMER_STATUS_TYPES.has(type)) return customerPayload(notification);
    const resource = ACCOUNT_RESOURCE[type];
    if (!resource) return notification;
    const accountId = (JSON.parse(notification.dataJson) as { accountId?: string }).accountId;
    const account = accountId ? await deps.resources[resource](platformId, accountId) : undefined;
    return account && { ...notification, dataJson: JSON.stringify(account) };
  }

  return { isWebhookType, isSent, build };
}

export type WebhookPayloads = ReturnType<typeof createWebhookPayloads>;
