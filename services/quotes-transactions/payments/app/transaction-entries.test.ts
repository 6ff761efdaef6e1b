import { decodePageCursor } from '../../../../lib/page-cursor';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { Payment } from '../domain/payment';
import { createCardTransactionDocumentStore } from '../../cards/store/card-transaction-document-store';
import type { CardTransactionEntry } from '../../cards/app/card-transaction-store';
import { createTransactionEntries } from './transaction-entries';
import type { PaymentStore } from './payment-store';
import { createTransactionQueries, type ListTransactionsCommand, type TransactionQueries } from './transactions-query';

const PLATFORM = 'Platform:1';
const caller = { platformId: PLATFORM };
const at = (minute: number) => `2026-05-08T14:${String(minute).padStart(2, '0')}:00.000Z`;

/** Payments listed as the payment store does: by (createdAt, id) after the cursor, limit + hasMore. */
function paymentQueries(payments: Array<{ id: string; createdAt: string }>): TransactionQueries {
  return {
    async listTransactions(command: ListTransactionsCommand) {
      const limit = command.limit || 20;
      const sign = command.sortOrder === 'asc' ? 1 : -1;
      const ordered = [...payments].sort((a, b) =>
        sign * (a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      );
      const after = command.cursor ? decodePageCursor(command.cursor) : undefined;
      const rest = after
        ? ordered.filter((p) => sign * (p.createdAt.localeCompare(after.createdAt) || p.id.localeCompare(after.id)) > 0)
        : ordered;
      return {
        payments: rest.slice(0, limit) as unknown as Payment[],
        hasMore: rest.length > limit,
        totalCount: payments.length,
      };
    },
    windowed: async (_c: unknown, _id: unknown, start: string | undefined) => start,
    gateOne: async (_c: unknown, found: unknown) => found,
    gatedByData: async (request: { requestedStart?: string; read: (start?: string) => Promise<unknown> }) =>
      request.read(request.requestedStart),
  } as unknown as TransactionQueries;
}

function cardEntry(id: string, createdAt: string, extra: Partial<CardTransactionEntry> = {}): CardTransactionEntry {
  return {
    id,
    platformId: PLATFORM,
    cardId: 'Card:1',
    customerId: 'Customer:1',
    platformCustomerId: 'c1',
    issuerTransactionToken: id,
    status: 'AUTHORIZED',
    merchant: { descriptor: 'SHOP' },
    currency: 'USD',
    accountId: 'InternalAccount:1',
    authorizedAmount: 100,
    held: 100,
    settled: 0,
    refunded: 0,
    pulls: { count: 0, totalAmount: 0 },
    settlements: { count: 0, totalAmount: 0 },
    refunds: { count: 0, totalAmount: 0 },
    events: 0,
    authorizedAt: createdAt,
    createdAt,
    updatedAt: createdAt,
    decision: 'APPROVED',
    ...extra,
  };
}

async function setup() {
  const store = createEmbeddedDocumentStore();
  const cards = createCardTransactionDocumentStore(store).port;
  await cards.ensureIndexes();
  for (const [i, minute] of [1, 3, 5, 7].entries()) await cards.insert(cardEntry(`CardTransaction:${i}`, at(minute)));
  await cards.insert(cardEntry('CardTransaction:declined', at(8), { decision: 'DECLINED' }));
  const payments = [2, 4, 6].map((minute, i) => ({ id: `Transaction:${i}`, createdAt: at(minute) }));
  return createTransactionEntries({ queries: paymentQueries(payments), cards });
}

const idOf = (e: { payment: { id: string } } | { card: { id: string } }) => ('payment' in e ? e.payment.id : e.card.id);

test('payments and approved card transactions share one order and one cursor, in both directions', async () => {
  const entries = await setup();
  for (const sortOrder of ['asc', 'desc'] as const) {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await entries.list({ caller, limit: 2, sortOrder, ...(cursor ? { cursor } : {}) });
      expect(page.totalCount).toBe(7);
      seen.push(...page.entries.map(idOf));
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
    const ascending = [
      'CardTransaction:0',
      'Transaction:0',
      'CardTransaction:1',
      'Transaction:1',
      'CardTransaction:2',
      'Transaction:2',
      'CardTransaction:3',
    ];
    expect(seen).toEqual(sortOrder === 'asc' ? ascending : [...ascending].reverse());
  }
});

test('filters a card transaction cannot match leave the cards out; a card id reads the card transaction', async () => {
  const entries = await setup();
  expect((await entries.list({ caller, type: 'OUTGOING' })).entries.map(idOf)).toEqual([
    'Transaction:2',
    'Transaction:1',
    'Transaction:0',
  ]);
  expect((await entries.list({ caller, startDate: at(5) })).entries.filter((e) => 'card' in e).map(idOf)).toEqual([
    'CardTransaction:3',
    'CardTransaction:2',
  ]);
  expect(await entries.get(caller, 'CardTransaction:2')).toMatchObject({
    card: { id: 'CardTransaction:2', status: 'AUTHORIZED' },
  });
  await expect(entries.get(caller, 'CardTransaction:declined')).rejects.toMatchObject({
    code: 'TRANSACTION_NOT_FOUND',
  });
});

test("an agent's allowed accounts keep the card transactions those accounts funded", async () => {
  const entries = await setup();
  const cardsOf = async (touchingAccountIds: string[]) =>
    (await entries.list({ caller, touchingAccountIds })).entries.filter((e) => 'card' in e).map(idOf);
  expect(await cardsOf(['InternalAccount:1'])).toEqual([
    'CardTransaction:3',
    'CardTransaction:2',
    'CardTransaction:1',
    'CardTransaction:0',
  ]);
  expect(await cardsOf(['InternalAccount:2'])).toEqual([]);
  expect(await cardsOf([])).toEqual([]);
});

test('a card transaction read by id is gated by the SCA window like a payment, after reader visibility', async () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const store = createEmbeddedDocumentStore();
  const cards = createCardTransactionDocumentStore(store).port;
  await cards.ensureIndexes();
  await cards.insert(cardEntry('CardTransaction:old', '2026-01-01T00:00:00.000Z', { customerId: 'EU' }));
  await cards.insert(cardEntry('CardTransaction:new', '2026-05-30T00:00:00.000Z', { customerId: 'EU' }));
  const oldPayment = {
    id: 'Transaction:old',
    customerId: 'EU',
    createdAt: '2026-01-01T00:00:00.000Z',
  } as unknown as Payment;
  const payments = {
    async get(_p: string, id: string) {
      return id === oldPayment.id ? oldPayment : null;
    },
  } as unknown as PaymentStore;
  const entriesWith = (sessionLive: boolean) =>
    createTransactionEntries({
      cards,
      queries: createTransactionQueries({
        payments,
        clock: () => now,
        scaReads: async (_c, customerId) => ({ scaCustomer: customerId === 'EU', sessionLive }),
      }),
    });
  const closed = entriesWith(false);
  await expect(closed.get(caller, 'CardTransaction:old')).rejects.toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  expect(await closed.get(caller, 'CardTransaction:new')).toMatchObject({ card: { id: 'CardTransaction:new' } });
  // A reader that may not see it learns nothing: 404, not 409.
  await expect(closed.get(caller, 'CardTransaction:old', () => false)).rejects.toMatchObject({
    code: 'TRANSACTION_NOT_FOUND',
  });
  await expect(closed.get(caller, 'Transaction:old', () => false)).rejects.toMatchObject({
    code: 'TRANSACTION_NOT_FOUND',
  });
  await expect(closed.get(caller, 'Transaction:old')).rejects.toMatchObject({ code: 'SCA_SESSION_REQUIRED' });
  expect(await entriesWith(true).get(caller, 'CardTransaction:old')).toMatchObject({
    card: { id: 'CardTransaction:old' },
  });
});
