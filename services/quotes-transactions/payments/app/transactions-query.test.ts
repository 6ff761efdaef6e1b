import type { Payment } from '../domain/payment';
import type { PaymentStore, TransactionQuery } from './payment-store';
import { createTransactionQueries } from './transactions-query';

const now = new Date('2026-06-01T00:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString();
const caller = { platformId: 'P' } as never;
const payment = (
  id: string,
  customerId: string,
  createdAt: string,
) => ({
  id,
  customerId,
  platformCustomerId: `pc-${customerId}`,
  createdAt,
  quote: { id: id.replace('Transaction:', 'Quote:') },
} as unknown as Payment);
const stored = [
  payment('Transaction:old-eu', 'EU', daysAgo(200)),
  payment('Transaction:new-eu', 'EU', daysAgo(5)),
  payment('Transaction:old-us', 'US', daysAgo(200)),
];
const store = {
  async get(_p: string, id: string) {
    return stored.find((p) => p.id === id) ?? null;
  },
  async getByQuote(_p: string, quoteId: string) {
    return stored.find((p) => p.quote?.id === quoteId) ?? null;
  },
  async list(_p: string, q: TransactionQuery) {
    const found = stored.filter((p) =>
      (!q.customerId || p.customerId === q.customerId)
      && (!q.platformCustomerId || p.platformCustomerId === q.platformCustomerId)
      && (!q.startDate || p.createdAt >= q.startDate)
    );
    return { payments: found.slice(0, q.limit), hasMore: found.length > q.limit };
  },
} as unknown as PaymentStore;

/** EU and EU2 are SCA customers; `sessions` lists those with a live session (true: every one). */
function queries(sessions: boolean | string[]) {
  const asked: string[] = [];
  const q = createTransactionQueries({
    payments: store,
    clock: () => now,
    scaReads: async (_c, customerId) => {
      asked.push(customerId);
      return {
        scaCustomer: customerId.startsWith('EU'),
        sessionLive: sessions === true || (Array.isArray(sessions) && sessions.includes(customerId)),
      };
    },
  });
  return { q, asked };
}
const ids = (page: { payments: Payment[] }) => page.payments.map((p) => p.id);

test('without a session an SCA customer reads the window: no start reads the window, older ones refused', async () => {
  const { q } = queries(false);
  expect(ids(await q.listTransactions({ caller, customerId: 'EU' }))).toEqual(['Transaction:new-eu']);
  await expect(q.listTransactions({ caller, customerId: 'EU', startDate: daysAgo(91) })).rejects.toMatchObject({
    code: 'SCA_SESSION_REQUIRED',
  });
  expect(ids(await q.listTransactions({ caller, customerId: 'EU', startDate: daysAgo(89) }))).toEqual([
    'Transaction:new-eu',
  ]);
  await expect(q.getTransaction(caller, 'Transaction:old-eu')).rejects.toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  expect((await q.getTransaction(caller, 'Transaction:new-eu')).id).toBe('Transaction:new-eu');
});

test('with a live session an SCA customer reads all of its history', async () => {
  const { q } = queries(true);
  expect(ids(await q.listTransactions({ caller, customerId: 'EU' }))).toEqual([
    'Transaction:old-eu',
    'Transaction:new-eu',
  ]);
  expect((await q.getTransaction(caller, 'Transaction:old-eu')).id).toBe('Transaction:old-eu');
});

test('a non-SCA customer reads everything; reads inside the window never ask the accounts service', async () => {
  const { q, asked } = queries(false);
  expect(ids(await q.listTransactions({ caller, customerId: 'US' }))).toEqual(['Transaction:old-us']);
  expect((await q.getTransaction(caller, 'Transaction:old-us')).id).toBe('Transaction:old-us');
  asked.length = 0;
  await q.listTransactions({ caller, customerId: 'EU', startDate: daysAgo(10) });
  await q.getTransaction(caller, 'Transaction:new-eu');
  await q.listTransactions({ caller });
  expect(asked).toEqual([]);
});

test('a list naming the SCA customer by platformCustomerId is gated as one naming it by customerId', async () => {
  const { q } = queries(false);
  expect(ids(await q.listTransactions({ caller, platformCustomerId: 'pc-EU' }))).toEqual(['Transaction:new-eu']);
  await expect(q.listTransactions({ caller, platformCustomerId: 'pc-EU', startDate: daysAgo(91) })).rejects
    .toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  expect(ids(await q.listTransactions({ caller, platformCustomerId: 'pc-EU', startDate: daysAgo(89) }))).toEqual([
    'Transaction:new-eu',
  ]);
  expect(ids(await q.listTransactions({ caller, platformCustomerId: 'pc-US', startDate: daysAgo(400) }))).toEqual([
    'Transaction:old-us',
  ]);
  expect(ids(await q.listTransactions({ caller, platformCustomerId: 'pc-unknown', startDate: daysAgo(400) }))).toEqual(
    [],
  );
  const live = queries(['EU']).q;
  expect(ids(await live.listTransactions({ caller, platformCustomerId: 'pc-EU', startDate: daysAgo(400) }))).toEqual([
    'Transaction:old-eu',
    'Transaction:new-eu',
  ]);
});

test("an SCA customer's quote reads: an old quote, or a list reaching past the window, needs the session", async () => {
  const { q } = queries(false);
  await expect(q.getQuote(caller, 'Quote:old-eu')).rejects.toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  expect((await q.getQuote(caller, 'Quote:new-eu')).id).toBe('Transaction:new-eu');
  expect(ids(await q.listQuotes({ caller, customerId: 'EU' }))).toEqual(['Transaction:new-eu']);
  await expect(q.listQuotes({ caller, customerId: 'EU', createdAfter: daysAgo(91) })).rejects.toMatchObject({
    code: 'SCA_SESSION_REQUIRED',
  });
  // A non-SCA customer's quotes read whatever their age.
  expect((await q.getQuote(caller, 'Quote:old-us')).id).toBe('Transaction:old-us');
  expect(ids(await q.listQuotes({ caller, customerId: 'US', createdAfter: daysAgo(400) }))).toEqual([
    'Transaction:old-us',
  ]);
  const live = queries(['EU']).q;
  expect((await live.getQuote(caller, 'Quote:old-eu')).id).toBe('Transaction:old-eu');
  expect(ids(await live.listQuotes({ caller, customerId: 'EU', createdAfter: daysAgo(400) }))).toEqual([
    'Transaction:old-eu',
    'Transaction:new-eu',
  ]);
});

test("another customer's session does not open the gate", async () => {
  const { q } = queries(['EU2']);
  await expect(q.getTransaction(caller, 'Transaction:old-eu')).rejects.toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  await expect(q.getQuote(caller, 'Quote:old-eu')).rejects.toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  await expect(q.listTransactions({ caller, platformCustomerId: 'pc-EU', startDate: daysAgo(91) })).rejects
    .toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  await expect(q.listQuotes({ caller, customerId: 'EU', createdAfter: daysAgo(91) })).rejects.toMatchObject({
    code: 'SCA_SESSION_REQUIRED',
  });
});
