import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { NewEvent } from '../../../lib/bus/outbox';
import type { Customer } from '../domain/customer';
import type { CustomerVerificationStatus, Verification } from '../domain/verification';

/** A verification as the REST Verification (no personal data: ids, states and what is missing). */
export function verificationRecord(v: Verification) {
  return {
    id: v.id,
    customerId: v.customerId,
    verificationStatus: v.status,
    errors: v.errors.map((e) => ({ ...e })),
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

/** VERIFICATION.<status>: the webhook's data is the verification. */
export function verificationStatusChanged(newEvent: NewEvent, v: Verification): DomainEvent {
  return newEvent({
    type: `VERIFICATION.${v.status}`,
    version: 1,
    platformId: v.platformId,
    aggregateId: v.id,
    data: verificationRecord(v),
  });
}

/** A customer's verification status changed to `status` at `now`; `type` is the event type to raise. */
export interface CustomerStatusChange {
  newEvent: NewEvent;
  type: string;
  customer: Customer;
  status: CustomerVerificationStatus;
  now: string;
}

/**
 * CUSTOMER.KYC_* / CUSTOMER.KYB_*: the event carries the customer's identifiers and new status only
 * (names, contacts and addresses stay out of events); the notifications service sends the customer
 * as GET /customers/{id} renders it (a business with its beneficial owners), at this status.
 */
export function customerStatusChanged({ newEvent, type, customer: c, status, now }: CustomerStatusChange): DomainEvent {
  const statusMember = c.customerType === 'BUSINESS' ? { kybStatus: status } : { kycStatus: status };
  return newEvent({
    type,
    version: 1,
    platformId: c.platformId,
    aggregateId: c.id,
    data: {
      id: c.id,
      platformCustomerId: c.platformCustomerId,
      customerType: c.customerType,
      umaAddress: c.umaAddress,
      ...(c.region ? { region: c.region } : {}),
      currencies: c.currencies,
      ...statusMember,
      isDeleted: c.isDeleted,
      createdAt: c.createdAt,
      updatedAt: now,
    },
  });
}
