import { silentLogger } from '../../../lib/log';
import { leasesIn } from '../../../lib/runtime/lease';
import type { Doc, DocumentStore } from '../../../lib/store/document-store';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { internalAccountId } from '../domain/name-based-id';
import { startAccountsService } from '../test-fixtures/accounts-service-harness';
import { createCrashingDocumentStore } from '../test-fixtures/crashing-document-store';
import {
  configChangesOf,
  customerFieldsOf,
  externalAccountBody,
  externalAccountRequest,
} from '../test-fixtures/request-bodies';
import type { AccountProvisioning } from './account-provisioning';
import type { AccountsStore, PendingProvisioningQuery } from './accounts-store';
import type { CustomerEmailChange } from './customer-email-change';
import type { OwnershipVerification } from './ownership-verification';
import { createRepairWorker } from './repair-worker';

const ENV = { ACCOUNTS_PLATFORM_CURRENCIES: 'USD,USDC,MXN' };
const WALLETS = { embeddedWalletConfig: { appName: 'Acme Wallet' } };
const outboxTypes = (doc: Doc | null) => ((doc?._outbox ?? []) as Array<{ type: string }>).map((e) => e.type);

/**
 * A service on a store that dies after `n` writes of `act`; then a new process on the same data,
 * whose start-up sweep must complete what was left.
 */
async function crashThenRestart<T>(
  n: number,
  setUp: (h: Awaited<ReturnType<typeof startAccountsService>>, platform: { platformId: string }) => Promise<T>,
  act: (
    h: Awaited<ReturnType<typeof startAccountsService>>,
    platform: { platformId: string },
    state: T,
  ) => Promise<unknown>,
) {
  const base = createEmbeddedDocumentStore();
  const crashing = createCrashingDocumentStore(base);
  const first = await startAccountsService(ENV, { store: crashing });
  const platform = await first.newPlatform();
  const state = await setUp(first, platform);
  crashing.crashAfter(n);
  const outcome = await act(first, platform, state).then(() => 'OK', (err: { code?: string }) => err.code);
  const writes = crashing.writes;
  await first.stop();
  const second = await startAccountsService(ENV, { store: base });
  await second.repair.stop();
  return { base, platform, state, outcome, writes, second };
}

const docs = (store: DocumentStore, collection: string, filter: Record<string, unknown>) =>
  store.collection(collection).find(filter);

describe('customer create: a crash after any write is completed by the start-up sweep, exactly', () => {
  const create = (h: Awaited<ReturnType<typeof startAccountsService>>, platform: { platformId: string }) =>
    h.client.createCustomer({
      customer: customerFieldsOf({
        customerType: 'INDIVIDUAL',
        currencies: ['USD', 'USDC'],
        email: 'ana@example.com',
        phoneNumber: '+14155551234',
      }),
    }, platform);

  test('without a crash the create takes 6 writes: customer, 3 accounts, wallet ready, marker cleared', async () => {
    const { outcome, writes, second } = await crashThenRestart(1e9, async (h, p) => {
      await h.client.updatePlatformConfig({ changes: configChangesOf(WALLETS) }, p);
    }, create);
    expect([outcome, writes]).toEqual(['OK', 6]);
    await second.stop();
  });

  test.each([0, 1, 2, 3, 4, 5])('crash after %i writes', async (n) => {
    const { base, platform, outcome, second } = await crashThenRestart(n, async (h, p) => {
      await h.client.updatePlatformConfig({ changes: configChangesOf(WALLETS) }, p);
    }, create);
    expect(outcome).toBe('INTERNAL_ERROR');
    const customers = await docs(base, 'customers', { platformId: platform.platformId });
    const accounts = await docs(base, 'internal_accounts', {
      platformId: platform.platformId,
      ownerKey: { $ne: 'PLATFORM' },
    });
    if (n === 0) {
      expect([customers, accounts]).toEqual([[], []]);
    } else {
      const [customer] = customers;
      expect(customer.provisioning).toEqual([]);
      expect(outboxTypes(customer)).toEqual(['CUSTOMER.CREATED']);
      const ids = [
        internalAccountId(customer._id, 'USD', 'INTERNAL_FIAT'),
        internalAccountId(customer._id, 'USDC', 'INTERNAL_CRYPTO'),
        internalAccountId(customer._id, 'USD', 'EMBEDDED_WALLET'),
      ];
      expect(accounts.map((a) => a._id).sort()).toEqual([...ids].sort());
      for (const account of accounts) {
        expect(outboxTypes(account).filter((t) => t === 'INTERNAL_ACCOUNT.CREATED')).toHaveLength(1);
      }
      const wallet = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!;
      expect(wallet).toMatchObject({ status: 'ACTIVE', walletProvisioned: true, currency: 'USD' });
      expect(outboxTypes(wallet)).toEqual(['INTERNAL_ACCOUNT.CREATED', 'INTERNAL_ACCOUNT.STATUS_UPDATED']);
      if (n < 4) {
        expect(second.walletAuth.calls).toEqual([{
          accountId: ids[2],
          platformId: platform.platformId,
          customerEmail: 'ana@example.com',
          customerPhone: '+14155551234',
        }]);
      }
    }
    await second.stop();
  });
});

describe('customer update adding a currency', () => {
  test.each([1, 2])('crash after %i writes: the new account exists once and the marker is cleared', async (n) => {
    const { base, state: customerId, outcome, second } = await crashThenRestart(
      n,
      async (h, p) =>
        (await h.client.createCustomer({
          customer: customerFieldsOf({ customerType: 'INDIVIDUAL', currencies: ['USD'] }),
        }, p)).customer!.id,
      (h, p, id) =>
        h.client.updateCustomer({
          id,
          changes: customerFieldsOf({ customerType: 'INDIVIDUAL', currencies: ['USD', 'MXN'] }),
        }, p),
    );
    expect(outcome).toBe('INTERNAL_ERROR');
    const customer = await base.collection('customers').findOne({ _id: customerId });
    expect([customer?.currencies, customer?.provisioning]).toEqual([['USD', 'MXN'], []]);
    const accounts = await docs(base, 'internal_accounts', { ownerKey: customerId });
    expect(accounts.map((a) => a.currency).sort()).toEqual(['MXN', 'USD']);
    await second.stop();
  });
});

describe('a new default UMA deposit account', () => {
  test.each([1, 2])('crash after %i writes: the previous default is cleared by the sweep', async (n) => {
    const { base, state, outcome, second } = await crashThenRestart(
      n,
      async (h, p) => {
        const customerId =
          (await h.client.createCustomer({ customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) }, p)).customer!
            .id;
        const first = await h.client.createExternalAccount(
          externalAccountRequest(externalAccountBody('USD_ACCOUNT', { customerId, defaultUmaDepositAccount: true })),
          p,
        );
        return { customerId, firstId: first.account!.id };
      },
      (h, p, { customerId }) =>
        h.client.createExternalAccount(
          externalAccountRequest(externalAccountBody('MXN_ACCOUNT', { customerId, defaultUmaDepositAccount: true })),
          p,
        ),
    );
    expect(outcome).toBe('INTERNAL_ERROR');
    const accounts = await docs(base, 'external_accounts', { customerId: state.customerId });
    expect(accounts.map((a) => [a._id === state.firstId, a.defaultUmaDepositAccount, a.clearingPreviousDefault]))
      .toEqual(
        expect.arrayContaining([[true, false, undefined], [false, true, undefined]]),
      );
    await second.stop();
  });

  test('the newest default wins whatever order repairs run in', async () => {
    const h = await startAccountsService(ENV);
    const p = await h.newPlatform();
    const customerId =
      (await h.client.createCustomer({ customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) }, p)).customer!.id;
    const first = (await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('USD_ACCOUNT', { customerId, defaultUmaDepositAccount: true })),
      p,
    )).account!;
    const second = (await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('MXN_ACCOUNT', { customerId, defaultUmaDepositAccount: true })),
      p,
    )).account!;
    // Replaying the first account's clearing (as a late repair would) must not clear the newer default.
    await h.store.collection('external_accounts').updateOne({ _id: first.id }, {
      $set: { clearingPreviousDefault: true, createdAt: '2000-01-01T00:00:00.000Z' },
    });
    await h.repair.sweep({ graceMs: 0 });
    expect((await h.client.getExternalAccount({ id: second.id }, p)).account!.defaultUmaDepositAccount).toBe(true);
    expect((await h.client.getExternalAccount({ id: first.id }, p)).account!.defaultUmaDepositAccount).toBe(false);
    await h.stop();
  });
});

describe('platform configuration adding a currency', () => {
  test('crash after the configuration write: the platform account is opened by the sweep', async () => {
    const { base, platform, outcome, second } = await crashThenRestart(
      1,
      async () => undefined,
      (h, p) =>
        h.client.updatePlatformConfig({
          changes: configChangesOf({
            supportedCurrencies: ['USD', 'BTC'].map((currencyCode) => ({
              currencyCode,
              minAmount: 1,
              maxAmount: 10,
              requiredCounterpartyFields: [],
              enabledTransactionTypes: ['OUTGOING'],
            })),
          }),
        }, p),
    );
    expect(outcome).toBe('INTERNAL_ERROR');
    const accounts = await docs(base, 'internal_accounts', { platformId: platform.platformId, ownerKey: 'PLATFORM' });
    expect(accounts.map((a) => a.currency).sort()).toEqual(['BTC', 'MXN', 'USD', 'USDC']);
    expect((await base.collection('platforms').findOne({ _id: platform.platformId }))?.provisioning).toEqual([]);
    await second.stop();
  });
});

describe('embedded wallet provisioning retried until the auth service succeeds', () => {
  test('the account stays PENDING and marked; a later sweep provisions it', async () => {
    const h = await startAccountsService(ENV);
    const p = await h.newPlatform();
    await h.client.updatePlatformConfig({ changes: configChangesOf(WALLETS) }, p);
    h.walletAuth.failing = true;
    const { customer } = await h.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL', currencies: ['USD'], email: 'bo@example.com' }),
    }, p);
    const walletId = internalAccountId(customer!.id, 'USD', 'EMBEDDED_WALLET');
    expect((await h.client.getInternalAccount({ id: walletId }, p)).account!.status).toBe('PENDING');
    expect(await h.repair.sweep({ graceMs: 0 })).toMatchObject({ completed: 0, pending: 1, failed: 0 });
    h.walletAuth.failing = false;
    expect(await h.repair.sweep({ graceMs: 0 })).toMatchObject({ completed: 1, pending: 0 });
    expect((await h.client.getInternalAccount({ id: walletId }, p)).account).toMatchObject({
      type: 'EMBEDDED_WALLET',
      status: 'ACTIVE',
    });
    expect((await h.store.collection('customers').findOne({ _id: customer!.id }))?.provisioning).toEqual([]);
    expect(await h.repair.sweep({ graceMs: 0 })).toMatchObject({ completed: 0, pending: 0 });
    await h.stop();
  });

  test('work younger than the grace period is left to the request doing it', async () => {
    const h = await startAccountsService(ENV);
    const p = await h.newPlatform();
    await h.client.updatePlatformConfig({ changes: configChangesOf(WALLETS) }, p);
    h.walletAuth.failing = true;
    await h.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL', email: 'cy@example.com' }),
    }, p);
    expect(await h.repair.sweep({ graceMs: 60_000 })).toMatchObject({ completed: 0, pending: 0 });
    await h.stop();
  });
});

describe('several replicas', () => {
  /** A repair worker over nothing to repair, recording each sweep's cut-off. */
  function replica(name: string, leases: ReturnType<typeof leasesIn>, now: Date) {
    const cutoffs: string[] = [];
    const none = async (q: PendingProvisioningQuery) => {
      cutoffs.push(q.plannedBefore);
      return [];
    };
    const store = {
      customers: { findPendingProvisioning: none, findEmailChangesStartedBefore: async () => [] },
      platforms: { findPendingProvisioning: async () => [] },
      externalAccounts: { findPendingDefaultClearing: async () => [] },
    } as unknown as AccountsStore;
    const worker = createRepairWorker({
      store,
      provisioning: {} as AccountProvisioning,
      emailChange: {} as CustomerEmailChange,
      ownership: { completeDueLiveness: async () => 0 } as unknown as OwnershipVerification,
      clock: () => now,
      logger: silentLogger,
      intervalMs: 10,
      graceMs: 10_000,
      lease: leases('accounts repair'),
    });
    return { name, worker, cutoffs };
  }
  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((r) => setTimeout(r, 5));
  };

  test('only the lease holder sweeps; its start-up sweep keeps the grace; the other takes over at a stop', async () => {
    const shared = createEmbeddedDocumentStore();
    const now = new Date('2026-01-01T00:00:00Z');
    const a = replica('a', leasesIn(shared, { holder: 'a' }), now);
    const b = replica('b', leasesIn(shared, { holder: 'b' }), now);
    a.worker.start();
    await until(() => a.cutoffs.length >= 1);
    b.worker.start();
    await until(() => a.cutoffs.length >= 10);
    expect(b.cutoffs).toEqual([]);
    // Work marked within the grace may be another live replica's request: even the first sweep spares it.
    expect(new Set(a.cutoffs)).toEqual(new Set(['2025-12-31T23:59:50.000Z']));
    await a.worker.stop();
    await until(() => b.cutoffs.length >= 3);
    await b.worker.stop();
  });
});
