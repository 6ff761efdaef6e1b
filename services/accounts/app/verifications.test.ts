import { newEvent } from '../../../lib/bus/outbox';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { createManualReviewKycProvider } from '../adapters/manual-review-kyc-provider';
import { createSandboxKycProvider } from '../adapters/sandbox-kyc-provider';
import { assertContactVerified } from '../domain/contact-verification';
import { newCustomer } from '../domain/customer';
import { createAccountsDocumentStore } from '../store/accounts-document-store';
import { createComplianceFacts } from './compliance-facts';
import { createVerifications } from './verifications';

const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';

async function setUp(options: { failStatusWritesOnce?: boolean } = {}) {
  const store = createAccountsDocumentStore(createEmbeddedDocumentStore());
  await store.createIndexes();
  let clock = new Date('2026-01-01T00:00:00Z');
  let failures = options.failStatusWritesOnce ? 1 : 0;
  const setStatus = store.customers.setVerificationStatus.bind(store.customers);
  store.customers.setVerificationStatus = async (...args) => {
    if (failures > 0) {
      failures--;
      throw new Error('simulated crash before the customer write');
    }
    return setStatus(...args);
  };
  const verifications = createVerifications({
    store,
    provider: createSandboxKycProvider(),
    facts: createComplianceFacts(store),
    assertContactVerified,
    newEvent,
    clock: () => clock,
    settings: { stepMs: 1000, linkTtlMs: 60_000, linkBaseUrl: 'http://gateway.test' },
  });
  const customer = newCustomer(
    { customerType: 'INDIVIDUAL', profile: { fullName: 'Unit Person' } },
    {
      id: 'Customer:00000000-0000-4000-8000-0000000000aa',
      platformId: PLATFORM,
      umaAddress: '$unit@uma.test',
      platformCustomerId: 'unit-1',
    },
    ['USD'],
    clock.toISOString(),
  );
  await store.customers.insert(customer, []);
  const status = async () => (await store.customers.find(PLATFORM, customer.id))!.verificationStatus;
  return {
    store,
    verifications,
    customer,
    status,
    advance: (ms: number) => {
      clock = new Date(clock.getTime() + ms);
    },
  };
}

const tokenOf = (kycUrl: string) => kycUrl.slice(kycUrl.lastIndexOf('/') + 1);

test('a link is single use: the second completion is refused and starts nothing', async () => {
  const { verifications, customer } = await setUp();
  const link = await verifications.createLink(PLATFORM, { customerId: customer.id });
  await verifications.completeHosted(tokenOf(link.kycUrl), 'APPROVE');
  await expect(verifications.completeHosted(tokenOf(link.kycUrl), 'REJECT')).rejects.toMatchObject({
    code: 'REFERENCE_NOT_FOUND',
  });
  expect(await verifications.hostedState(tokenOf(link.kycUrl))).toMatchObject({ state: 'USED' });
});

test('an expired link is refused', async () => {
  const { verifications, customer, advance } = await setUp();
  const link = await verifications.createLink(PLATFORM, { customerId: customer.id });
  advance(60_001);
  expect(await verifications.hostedState(tokenOf(link.kycUrl))).toMatchObject({ state: 'EXPIRED' });
  await expect(verifications.completeHosted(tokenOf(link.kycUrl), 'APPROVE')).rejects.toMatchObject({
    code: 'REFERENCE_NOT_FOUND',
  });
});

test('expired links are forgotten a day after they expired', async () => {
  const { verifications, customer, advance } = await setUp();
  const link = await verifications.createLink(PLATFORM, { customerId: customer.id });
  advance(60_000 + 86_400_000 - 1);
  expect(await verifications.forgetExpiredLinks()).toBe(0);
  advance(2);
  expect(await verifications.forgetExpiredLinks()).toBe(1);
  expect(await verifications.hostedState(tokenOf(link.kycUrl))).toEqual({ state: 'UNKNOWN' });
});

test('steps are applied only when due, one at a time', async () => {
  const { verifications, customer, status, advance } = await setUp();
  const link = await verifications.createLink(PLATFORM, { customerId: customer.id });
  const { verification } = await verifications.completeHosted(tokenOf(link.kycUrl), 'MANUAL_REVIEW');
  expect(await status()).toBe('PENDING');
  expect(await verifications.advanceDue()).toBe(0);
  advance(1000);
  expect(await verifications.advanceDue()).toBe(1);
  expect((await verifications.get(PLATFORM, verification.id)).status).toBe('PENDING_MANUAL_REVIEW');
  advance(1000);
  await verifications.advanceDue();
  expect((await verifications.get(PLATFORM, verification.id)).status).toBe('APPROVED');
  expect(await status()).toBe('APPROVED');
  advance(1000);
  expect(await verifications.advanceDue()).toBe(0);
});

test('a crash between a step and the customer write is completed by the worker', async () => {
  const { verifications, customer, status } = await setUp({ failStatusWritesOnce: true });
  const link = await verifications.createLink(PLATFORM, { customerId: customer.id });
  await expect(verifications.completeHosted(tokenOf(link.kycUrl), 'APPROVE')).rejects.toThrow('simulated crash');
  expect(await status()).toBe('UNVERIFIED');
  const [v] = (await verifications.list(PLATFORM, { customerId: customer.id, limit: 0 })).items;
  expect(v.status).toBe('IN_PROGRESS');
  await verifications.advanceDue();
  expect(await status()).toBe('PENDING');
});

test("two replicas' workers over one store apply each step once (conditional writes), even without lease", async () => {
  const { store, verifications, customer, status, advance } = await setUp();
  let elapsed = 0;
  const other = createVerifications({
    store,
    provider: createSandboxKycProvider(),
    facts: createComplianceFacts(store),
    assertContactVerified,
    newEvent,
    clock: () => new Date(Date.parse('2026-01-01T00:00:00Z') + elapsed),
    settings: { stepMs: 1000, linkTtlMs: 60_000, linkBaseUrl: 'http://gateway.test' },
  });
  const step = (ms: number) => {
    elapsed += ms;
    advance(ms);
  };
  const link = await verifications.createLink(PLATFORM, { customerId: customer.id });
  const { verification } = await verifications.completeHosted(tokenOf(link.kycUrl), 'MANUAL_REVIEW');
  step(1000);
  const first = await Promise.all([verifications.advanceDue(), other.advanceDue()]);
  expect(first[0] + first[1]).toBe(1);
  expect((await verifications.get(PLATFORM, verification.id)).status).toBe('PENDING_MANUAL_REVIEW');
  step(1000);
  const second = await Promise.all([verifications.advanceDue(), other.advanceDue()]);
  expect(second[0] + second[1]).toBe(1);
  expect(await status()).toBe('APPROVED');
});

test("outside the sandbox no simulator decides: the hosted page's APPROVE and API submits wait in review", async () => {
  const { store, customer, status, advance } = await setUp();
  let elapsed = 0;
  const live = createVerifications({
    store,
    provider: createManualReviewKycProvider(),
    facts: createComplianceFacts(store),
    assertContactVerified,
    newEvent,
    clock: () => new Date(Date.parse('2026-01-01T00:00:00Z') + elapsed),
    settings: { stepMs: 1000, linkTtlMs: 60_000, linkBaseUrl: 'http://gateway.test' },
  });
  const link = await live.createLink(PLATFORM, { customerId: customer.id });
  expect(link.token).toBeUndefined();
  const { verification } = await live.completeHosted(tokenOf(link.kycUrl), 'APPROVE');
  for (let i = 0; i < 3; i++) {
    elapsed += 1000;
    advance(1000);
    await live.advanceDue();
  }
  expect((await live.get(PLATFORM, verification.id)).status).toBe('PENDING_MANUAL_REVIEW');
  expect(await status()).not.toBe('APPROVED');
  expect((await live.submit(PLATFORM, customer.id)).status).toBe('PENDING_MANUAL_REVIEW');
});
