import type { Payment } from '../domain/payment';
import type { PaymentStore, TransactionQuery } from './payment-store';
import { createTransactionQueries } from './transactions-query';

const now = new Date('2026-06-01T00:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString();
const caller = { platformId: 'P' } as never;
const payment = (id: string, customerId: string, createdAt: string) => ({ id, customerId, createdAt } as unknown as Payment);
const stored = [payment('Transaction:old-eu', 'EU', daysAgo(200)), payment('Transaction:new-eu', 'EU', daysAgo(5)), payment('Transaction:old-us', 'US', daysAgo(200))];
const store = {
  async get(_p: string, id: string) { return stored.find((p) => p.id === id) ?? null; },
  async list(_p: string, q: TransactionQuery) {
    return { payments: stored.filter((p) => p.customerId === q.customerId && (!q.startDate || p.createdAt >= q.startDate)), hasMore: false };
  },
} as unknown as PaymentStore;

function queries(sessionLive: boolean) {
  const asked: string[] = [];
  const q = createTransactionQueries({
    payments: store, clock: () => now,
    scaReads: async (_c, customerId) => { asked.push(customerId); return { scaCustomer: customerId === 'EU', sessionLive }; },
  });
  return { q, asked };
}
const ids = (page: { payments: Payment[] }) => page.payments.map((p) => p.id);

test('without a session an SCA customer reads the window: no start reads only the window, an older start is refused', async () => {
  const { q } = queries(false);
  expect(ids(await q.listTransactions({ caller, customerId: 'EU' }))).toEqual(['Transaction:new-eu']);
  await expect(q.listTransactions({ caller, customerId: 'EU', startDate: daysAgo(91) })).rejects.toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  expect(ids(await q.listTransactions({ caller, customerId: 'EU', startDate: daysAgo(89) }))).toEqual(['Transaction:new-eu']);
  await expect(q.getTransaction(caller, 'Transaction:old-eu')).rejects.toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  expect((await q.getTransaction(caller, 'Transaction:new-eu')).id).toBe('Transaction:new-eu');
});

test('with a live session an SCA customer reads all of its history', async () => {
  const { q } = queries(true);
  expect(ids(await q.listTransactions({ caller, customerId: 'EU' }))).toEqual(['Transaction:old-eu', 'Transaction:new-eu']);
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
