import { wire } from '../../../../test/fixtures/wire';
import { createInProcessEventBus } from '../../../../lib/bus/in-process-event-bus';
import type { DomainEvent } from '../../../../lib/bus/event-bus';
import { leasesIn, LEASES_COLLECTION } from '../../../../lib/runtime/lease';
import type { DocumentStore } from '../../../../lib/store/document-store';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { BALANCES_COLLECTION } from '../../ledger/store/ledger-document-store';
import { createCrashingStore } from '../../test-fixtures/crashing-store';
import { createFakePaymentAccounts } from '../../test-fixtures/fake-payment-accounts';
import {
  asPlatform,
  eventually,
  mxnAccountInfo,
  PLATFORM,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';

/**
 * Several replicas of the payments service over one store and one bus, each with its settlement
 * worker, crash recovery and outbox relay, as the production overlay runs them on MongoDB.
 */
const LEASE_MS = 500;
const base = createEmbeddedDocumentStore();
const bus = createInProcessEventBus();
const accounts = createFakePaymentAccounts();
const published: DomainEvent[] = [];
const env = { LEDGER_RECOVERY_AFTER_MS: '300' };
const replicas: PaymentsHarness[] = [];
let dead: PaymentsHarness | undefined;

/** A replica's view of the store that stops answering, as when its process dies or loses the network. */
function severable(inner: DocumentStore) {
  let severed = false;
  const fail = () => Promise.reject(new Error('replica is gone'));
  const collection = ((name: string) => {
    const target = inner.collection(name);
    return new Proxy(target, {
      get(object, prop, receiver) {
        const value = Reflect.get(object, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => (severed ? fail() : (value as (...a: unknown[]) => unknown).apply(object, args));
      },
    });
  }) as DocumentStore['collection'];
  return {
    store: { collection, ping: () => inner.ping(), close: async () => undefined } as DocumentStore,
    sever: () => {
      severed = true;
    },
  };
}

const replica = (name: string, store: DocumentStore = base) =>
  startPaymentsHarness(env, { store, bus, accounts, leases: leasesIn(base, { ttlMs: LEASE_MS, holder: name }) });

const source = accounts.addInternalAccount(PLATFORM, { currency: 'USD' });
const payee = accounts.addExternalAccount(PLATFORM, { currency: 'MXN', accountInfo: mxnAccountInfo() });
const leaseHolder = async (name: string) => (await base.collection(LEASES_COLLECTION).findOne({ _id: name }))?.holder;

beforeAll(async () => {
  await bus.subscribe({
    topic: 'payments.events.v1',
    group: 'observer',
    handler: async (e) => {
      published.push(e);
    },
  });
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
});

async function pay(via: PaymentsHarness, amount: number): Promise<string> {
  const { quote } = await via.quotes.createQuote({
    ...wire({
      source: { sourceType: 'ACCOUNT', accountId: source },
      destination: { destinationType: 'ACCOUNT', accountId: payee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    }),
  }, asPlatform);
  await via.quotes.executeQuote({ quoteId: quote!.id }, asPlatform);
  return quote!.transactionId;
}

const statusOf = async (via: PaymentsHarness, id: string) =>
  (await via.transactions.getTransaction({ transactionId: id }, asPlatform)).transaction!.status;
const available = async (via: PaymentsHarness) =>
  (await via.ledger.getBalances({ accountIds: [source] }, asPlatform)).balances[0].available;
const balanced = async (via: PaymentsHarness) => Object.values(await via.balanceSums()).every((sum) => sum === 0);
/** Each payment's events, by type: a payment settled twice would show two events of one type with different ids. */
const eventIdsByType = (id: string) => {
  const byType = new Map<string, Set<string>>();
  for (const e of published.filter((event) => event.aggregateId === id)) {
    byType.set(e.type, (byType.get(e.type) ?? new Set()).add(e.id));
  }
  return byType;
};

test(
  'a replica dying with the settlement lease, a step half done, is taken over after the lease lapses: settled once',
  async () => {
    const crashing = createCrashingStore(base, BALANCES_COLLECTION);
    const doomed = severable(crashing.store);
    dead = await replica('doomed', doomed.store);
    await dead.sandbox.fundInternalAccount({ accountId: source, ...wire({ amount: 100_000 }) }, asPlatform);
    await eventually(async () => ((await leaseHolder('settlement')) === 'doomed' ? true : undefined));
    const { quote } = await dead.quotes.createQuote({
      ...wire({
        source: { sourceType: 'ACCOUNT', accountId: source },
        destination: { destinationType: 'ACCOUNT', accountId: payee },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
      }),
    }, asPlatform);
    crashing.crashAfter(1, quote!.transactionId); // the debit lands, its credit does not: the step is left pending
    await expect(dead.quotes.executeQuote({ quoteId: quote!.id }, asPlatform)).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
    });
    doomed.sever(); // the replica is gone: it cannot give its leases back, and its consumers leave their groups
    await dead.stop();
    expect(await leaseHolder('settlement')).toBe('doomed');

    replicas.push(...(await Promise.all([replica('a'), replica('b')])));
    const [a] = replicas;
    await eventually(
      async () => ((await statusOf(a, quote!.transactionId)) === 'COMPLETED' ? true : undefined),
      20_000,
    );
    expect(['a', 'b']).toContain(await leaseHolder('settlement'));
    expect(await available(a)).toBe(100_000 - 10_000);
    await eventually(async () => ((await balanced(a)) ? true : undefined));
    // The events it left in the outbox leave through a live replica's relay, each once.
    await eventually(
      async () => (eventIdsByType(quote!.transactionId).has('OUTGOING_PAYMENT.COMPLETED') ? true : undefined),
      20_000,
    );
    for (const ids of eventIdsByType(quote!.transactionId).values()) expect(ids.size).toBe(1);
  },
  180_000,
);

test('payments made through several replicas each settle once, and every one is published', async () => {
  replicas.push(await replica('c'));
  const before = await available(replicas[0]);
  const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => pay(replicas[i % replicas.length], 1_000 + i)));
  const total = Array.from({ length: 30 }, (_, i) => 1_000 + i).reduce((sum, n) => sum + n, 0);
  await eventually(async () => {
    const statuses = await Promise.all(ids.map((id, i) => statusOf(replicas[i % replicas.length], id)));
    return statuses.every((s) => s === 'COMPLETED') ? true : undefined;
  }, 30_000);
  expect(await available(replicas[1])).toBe(before - total);
  await eventually(async () => ((await balanced(replicas[2])) ? true : undefined));
  await eventually(
    async () => (ids.every((id) => eventIdsByType(id).has('OUTGOING_PAYMENT.COMPLETED')) ? true : undefined),
    20_000,
  );
  for (const id of ids) for (const eventIds of eventIdsByType(id).values()) expect(eventIds.size).toBe(1);
}, 180_000);
