import { createHash, randomBytes } from 'node:crypto';
import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { NewEvent } from '../../../lib/bus/outbox';
import { AppError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import { pageQuery } from '../../../lib/page-cursor';
import type { Customer } from '../domain/customer';
import {
  customerStatusEventType,
  customerStatusFor,
  FINAL_STATES,
  RESUBMITTABLE_STATES,
  sentToProvider,
  takeProviderStep,
  type ProviderStep,
  type Verification,
  type VerificationState,
} from '../domain/verification';
import { verificationProblems, type DocumentFacts, type OwnerFacts } from '../domain/verification-requirements';
import type { AccountsStore, Page } from './accounts-store';
import type { HostedOutcome, KycProvider } from './kyc-provider';
import { customerStatusChanged, verificationStatusChanged } from './verification-events';
import type { KycLinkRecord } from './verification-store';

/** What a business's beneficial owners and uploaded documents contribute (issues B and C own them). */
export interface ComplianceFacts {
  ownersOf(platformId: string, customerId: string): Promise<OwnerFacts[]>;
  documentsOf(platformId: string, holderIds: string[]): Promise<DocumentFacts[]>;
}

export interface VerificationSettings {
  /** Delay between two provider steps (sandbox provider). */
  stepMs: number;
  linkTtlMs: number;
  /** Where the hosted page is served: `<base>/kyc/<token>`. */
  linkBaseUrl: string;
}

export interface KycLink {
  kycUrl: string;
  expiresAt: string;
  provider: string;
  token?: string;
  customerId: string;
  platformCustomerId: string;
}

export type HostedState = { state: 'OPEN' | 'USED' | 'EXPIRED'; customerType: string; expiresAt: string } | {
  state: 'UNKNOWN';
};

export interface Verifications {
  createLink(
    platformId: string,
    request: { customerId?: string; platformCustomerId?: string; redirectUri?: string },
  ): Promise<KycLink>;
  hostedState(token: string): Promise<HostedState>;
  completeHosted(token: string, outcome: HostedOutcome): Promise<{ redirectUri?: string; verification: Verification }>;
  submit(platformId: string, customerId: string): Promise<Verification>;
  get(platformId: string, id: string): Promise<Verification>;
  list(
    platformId: string,
    query: { customerId?: string; status?: string; limit: number; cursor?: string },
  ): Promise<Page<Verification>>;
  /** The worker's pass: due provider steps, then customer statuses still to follow. Answers how many moved. */
  advanceDue(limit?: number): Promise<number>;
  /** Forgets links a day after they expired. */
  forgetExpiredLinks(): Promise<number>;
}

export interface VerificationsDeps {
  store: AccountsStore;
  provider: KycProvider;
  facts: ComplianceFacts;
  /** Refuses (409) a customer whose contact verification is required and incomplete. */
  assertContactVerified(customer: Customer): void;
  newEvent: NewEvent;
  clock: () => Date;
  settings: VerificationSettings;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

function redirectUriOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let ok = false;
  try {
    ok = ['https:', 'http:'].includes(new URL(value).protocol) && value.length <= 2048;
  } catch { /* not a URL */ }
  if (!ok) {
    throw AppError.invalidInput('Invalid redirectUri', [{
      field: 'redirectUri',
      message: 'must be an https:// (or http://) URL',
      constraint: { format: 'url' },
    }]);
  }
  return value;
}

/**
 * KYC/KYB: hosted links, verification submissions and the provider's steps. A customer has one
 * verification, moved on by conditional writes; the customer's status follows each step and
 * changes nowhere else. A step and its customer status are two writes: the verification keeps
 * `customerStatusDue` until the second is done, so the worker completes it after a crash.
 */
export function createVerifications(deps: VerificationsDeps): Verifications {
  const { store, newEvent, settings } = deps;
  const now = () => deps.clock().toISOString();

  const customerOf = async (platformId: string, id: string) => {
    const c = await store.customers.find(platformId, id);
    if (!c || c.isDeleted) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
    return c;
  };

  const customerByPlatformId = async (platformId: string, platformCustomerId: string) => {
    const page = await store.customers.list(platformId, { platformCustomerId, includeDeleted: false }, { limit: 1 });
    if (!page.items[0]) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
    return page.items[0];
  };

  const applyCustomerStatus = async (v: Verification) => {
    const status = customerStatusFor(v);
    const customer = status ? await store.customers.find(v.platformId, v.customerId) : null;
    if (status && customer && customer.verificationStatus !== status) {
      const at = now();
      const type = customerStatusEventType(customer.customerType, status);
      const events: DomainEvent[] = type ? [customerStatusChanged({ newEvent, type, customer, status, now: at })] : [];
      const { platformId, customerId } = v;
      await store.customers.setVerificationStatus({ platformId, customerId, status, now: at, events });
    }
    // A business's owners are verified with it: each takes its status, unless screened apart.
    if (status && v.customerType === 'BUSINESS') {
      await store.beneficialOwners.setKycStatus({
        platformId: v.platformId,
        customerId: v.customerId,
        status,
        now: now(),
        own: v.ownerStatuses ?? {},
      });
    }
    await store.verifications.markCustomerStatusApplied(v.id, v.revision);
  };

  const fresh = (customer: Customer): Verification => {
    const at = now();
    return {
      id: newId('Verification'),
      platformId: customer.platformId,
      customerId: customer.id,
      customerType: customer.customerType,
      status: 'READY_FOR_VERIFICATION',
      errors: [],
      attempts: 0,
      pending: [],
      createdAt: at,
      updatedAt: at,
      revision: 0,
    };
  };

  /** Stores `next` (a first verification or a move of `current`), then lets the customer follow it. */
  const save = async (current: Verification | null, next: Verification): Promise<Verification> => {
    const events = [verificationStatusChanged(newEvent, next)];
    const saved = current
      ? await store.verifications.replace(next, events)
      : await store.verifications.insert(next, events);
    if (!saved) throw new AppError('CONFLICT', 'The verification was changed by another request; retry');
    await applyCustomerStatus(next);
    return next;
  };

  const toProvider = async (customer: Customer, current: Verification | null, hostedOutcome?: HostedOutcome) => {
    const base = { ...(current ?? fresh(customer)), ...(hostedOutcome ? { viaHostedFlow: true } : {}) };
    const owners = customer.customerType === 'BUSINESS'
      ? await deps.facts.ownersOf(customer.platformId, customer.id)
      : [];
    const steps: ProviderStep[] = deps.provider.submit({
      customer,
      attempt: base.attempts + 1,
      hostedOutcome,
      owners: owners.map((o) => ({ id: o.id, firstName: o.personalInfo.firstName, lastName: o.personalInfo.lastName })),
    });
    return save(current, sentToProvider(base, steps, now(), settings.stepMs));
  };

  const sameProblems = (a: Verification, b: Verification) =>
    a.status === b.status && JSON.stringify(a.errors) === JSON.stringify(b.errors);

  return {
    async createLink(platformId, request) {
      const redirectUri = redirectUriOf(request.redirectUri);
      const customer = request.customerId
        ? await customerOf(platformId, request.customerId)
        : await customerByPlatformId(platformId, request.platformCustomerId ?? '');
      deps.assertContactVerified(customer);
      const token = randomBytes(32).toString('base64url');
      const createdAt = now();
      const expiresAt = new Date(Date.parse(createdAt) + settings.linkTtlMs).toISOString();
      const link: KycLinkRecord = {
        tokenHash: hashOf(token),
        platformId,
        customerId: customer.id,
        customerType: customer.customerType,
        expiresAt,
        createdAt,
        ...(redirectUri ? { redirectUri } : {}),
      };
      await store.kycLinks.insert(link);
      const sdkToken = deps.provider.sdkToken(customer);
      return {
        kycUrl: `${settings.linkBaseUrl.replace(/\/+$/, '')}/kyc/${token}`,
        expiresAt,
        provider: deps.provider.name,
        ...(sdkToken ? { token: sdkToken } : {}),
        customerId: customer.id,
        platformCustomerId: customer.platformCustomerId,
      };
    },

    async hostedState(token) {
      const link = await store.kycLinks.find(hashOf(token));
      if (!link) return { state: 'UNKNOWN' };
      const state = link.usedAt ? 'USED' : link.expiresAt <= now() ? 'EXPIRED' : 'OPEN';
      return { state, customerType: link.customerType, expiresAt: link.expiresAt };
    },

    async completeHosted(token, outcome) {
      const link = await store.kycLinks.claim(hashOf(token), now());
      if (!link) {
        throw new AppError('REFERENCE_NOT_FOUND', 'This verification link is unknown, already used or expired');
      }
      const customer = await customerOf(link.platformId, link.customerId);
      const current = await store.verifications.findForCustomer(link.platformId, customer.id);
      const busy = current && !RESUBMITTABLE_STATES.includes(current.status);
      const verification = busy ? current : await toProvider(customer, current, outcome);
      return { ...(link.redirectUri ? { redirectUri: link.redirectUri } : {}), verification };
    },

    async submit(platformId, customerId) {
      const customer = await customerOf(platformId, customerId);
      deps.assertContactVerified(customer);
      const current = await store.verifications.findForCustomer(platformId, customerId);
      if (current && !RESUBMITTABLE_STATES.includes(current.status)) return current;
      if (current?.viaHostedFlow) return toProvider(customer, current);
      const owners = customer.customerType === 'BUSINESS' ? await deps.facts.ownersOf(platformId, customerId) : [];
      const documents = await deps.facts.documentsOf(platformId, [customerId, ...owners.map((o) => o.id)]);
      const problems = verificationProblems(customer, owners, documents);
      if (!problems.length) return toProvider(customer, current);
      const base = current ?? fresh(customer);
      const next: Verification = {
        ...base,
        status: 'RESOLVE_ERRORS',
        errors: problems,
        updatedAt: now(),
        revision: base.revision + 1,
      };
      if (current && sameProblems(current, next)) return current;
      return save(current, next);
    },

    async get(platformId, id) {
      const v = await store.verifications.find(platformId, id);
      if (!v) throw AppError.notFound('Verification');
      return v;
    },

    list(platformId, query) {
      return store.verifications.list(
        platformId,
        { customerId: query.customerId, status: query.status },
        pageQuery(query.limit, query.cursor),
      );
    },

    forgetExpiredLinks() {
      return store.kycLinks.forgetExpired(new Date(deps.clock().getTime() - 86_400_000).toISOString());
    },

    async advanceDue(limit = 50) {
      let moved = 0;
      for (const v of await store.verifications.findStepsDue(now(), limit)) {
        if (FINAL_STATES.includes(v.status as VerificationState) || !v.pending.length) continue;
        const next = takeProviderStep(v, now(), settings.stepMs);
        if (await store.verifications.replace(next, [verificationStatusChanged(newEvent, next)])) {
          moved++;
          await applyCustomerStatus(next);
        }
      }
      for (const v of await store.verifications.findCustomerStatusDue(limit)) await applyCustomerStatus(v);
      return moved;
    },
  };
}
