import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { NewEvent } from '../../../lib/bus/outbox';
import type { Customer } from '../domain/customer';
import type { ExternalAccount } from '../domain/external-account';
import type { InternalAccount } from '../domain/internal-account';

/** The service's events, version 1. Payloads carry ids and kinds, never personal data. */
export function customerCreated(newEvent: NewEvent, c: Customer): DomainEvent {
  return newEvent({
    type: 'CUSTOMER.CREATED',
    version: 1,
    platformId: c.platformId,
    aggregateId: c.id,
    data: {
      customerId: c.id,
      platformCustomerId: c.platformCustomerId,
      customerType: c.customerType,
      currencies: c.currencies,
    },
  });
}

export function customerUpdated(newEvent: NewEvent, c: Customer, changedFields: string[]): DomainEvent {
  return newEvent({
    type: 'CUSTOMER.UPDATED',
    version: 1,
    platformId: c.platformId,
    aggregateId: c.id,
    data: { customerId: c.id, changedFields },
  });
}

export function customerDeleted(newEvent: NewEvent, c: Customer): DomainEvent {
  return newEvent({
    type: 'CUSTOMER.DELETED',
    version: 1,
    platformId: c.platformId,
    aggregateId: c.id,
    data: { customerId: c.id, platformCustomerId: c.platformCustomerId },
  });
}

export function internalAccountCreated(newEvent: NewEvent, a: InternalAccount): DomainEvent {
  return newEvent({
    type: 'INTERNAL_ACCOUNT.CREATED',
    version: 1,
    platformId: a.platformId,
    aggregateId: a.id,
    data: {
      accountId: a.id,
      ...(a.customerId ? { customerId: a.customerId } : {}),
      type: a.type,
      currency: a.currency,
    },
  });
}

export function internalAccountStatusUpdated(
  newEvent: NewEvent,
  a: InternalAccount,
  previousStatus: string,
): DomainEvent {
  return newEvent({
    type: 'INTERNAL_ACCOUNT.STATUS_UPDATED',
    version: 1,
    platformId: a.platformId,
    aggregateId: a.id,
    data: {
      accountId: a.id,
      ...(a.customerId ? { customerId: a.customerId } : {}),
      type: a.type,
      previousStatus,
      status: a.status,
    },
  });
}

/** The names of the members that changed only: the webhook endpoint and fees are read from GetPlatformConfig. */
export function platformConfigUpdated(newEvent: NewEvent, platformId: string, changedFields: string[]): DomainEvent {
  return newEvent({
    type: 'PLATFORM.CONFIG_UPDATED',
    version: 1,
    platformId,
    aggregateId: platformId,
    data: { platformId, changedFields },
  });
}

function externalAccountRef(a: ExternalAccount) {
  return { accountId: a.id, ...(a.customerId ? { customerId: a.customerId } : {}) };
}

export function externalAccountCreated(newEvent: NewEvent, a: ExternalAccount): DomainEvent {
  return newEvent({
    type: 'EXTERNAL_ACCOUNT.CREATED',
    version: 1,
    platformId: a.platformId,
    aggregateId: a.id,
    data: {
      ...externalAccountRef(a),
      currency: a.currency,
      accountType: String(a.accountInfo.accountType),
      status: a.status,
    },
  });
}

export function externalAccountDeleted(newEvent: NewEvent, a: ExternalAccount): DomainEvent {
  return newEvent({
    type: 'EXTERNAL_ACCOUNT.DELETED',
    version: 1,
    platformId: a.platformId,
    aggregateId: a.id,
    data: externalAccountRef(a),
  });
}

export function externalAccountStatusUpdated(
  newEvent: NewEvent,
  a: ExternalAccount,
  previousStatus: string,
): DomainEvent {
  return newEvent({
    type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED',
    version: 1,
    platformId: a.platformId,
    aggregateId: a.id,
    data: { ...externalAccountRef(a), previousStatus, status: a.status },
  });
}
