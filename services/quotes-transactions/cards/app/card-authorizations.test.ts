import { webhookContractProblems } from '../../../../test/contract/webhook-contract-check';
import { createEventFactory } from '../../../../lib/bus/event-factory';
import type { DomainEvent } from '../../../../lib/bus/event-bus';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { Card } from '../domain/card';
import { holdsAccount, networkAccount } from '../domain/card-transaction';
import { BALANCE_LIMIT, ledgerStep, systemAccount } from '../../ledger/domain/ledger-postings';
import {
  createCardTransactionDocumentStore,
  CARD_TRANSACTIONS_COLLECTION,
} from '../store/card-transaction-document-store';
import { createLedgerDocumentStore } from '../../ledger/store/ledger-document-store';
import { createLedger } from '../../ledger/app/ledger';
import { createCardAuthorizations } from './card-authorizations';

const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
const caller = { platformId: PLATFORM };
const FIRST = 'InternalAccount:aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const SECOND = 'InternalAccount:bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const LIFE = 'Card:019542f5-b3e7-1d02-0000-000000000010';
const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };

function card(id: string, extra: Partial<Card> = {}): Card {
  return {
    id,
    platformId: PLATFORM,
    cardholderId: 'Customer:1',
    platformCardId: id,
    state: 'ACTIVE',
    stateReason: null,
    form: 'VIRTUAL',
    fundingSources: [FIRST, SECOND],
    currency: 'USD',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

function setup() {
  const store = createEmbeddedDocumentStore();
  const ledgerStore = createLedgerDocumentStore(store, () => new Date());
  const ledger = createLedger({ store: ledgerStore.ledger, newEvent: createEventFactory() });
  const cards = new Map<string, Card>();
  const txStore = createCardTransactionDocumentStore(store);
  const authorizations = createCardAuthorizations({
    store: txStore.port,
    ledger,
    newEvent: createEventFactory(),
    clock: () => new Date(),
    card: async (_c, id) => cards.get(id)!,
    platformCustomerId: async () => 'holder-1',
  });
  const fund = (account: string, amount: number) =>
    ledger.post(
      PLATFORM,
      ledgerStep(`fund/${account}/${amount}/${Math.random()}`, [
        { account, currency: 'USD', amount },
        { account: systemAccount('settlement', 'USD', PLATFORM), currency: 'USD', amount: -amount },
      ]),
    );
  // System accounts are spread over several balance documents: their balance is the sum.
  const balance = async (account: string) =>
    (await ledger.allBalances()).filter((b) => b.account === account).reduce((sum, b) => sum + b.available, 0);
  /** Every CARD_TRANSACTION webhook event written so far, in order. */
  const webhooks = async () =>
    (await store.collection(CARD_TRANSACTIONS_COLLECTION).find({}))
      .flatMap((d) => (d._outbox as DomainEvent[] | undefined) ?? []);
  const transactions = () => store.collection(CARD_TRANSACTIONS_COLLECTION).countDocuments({});
  return { ledger, cards, authorizations, fund, balance, webhooks, transactions };
}

test('100 concurrent authorizations on a balance covering 37: 37 approved, the balance exact to the unit', async () => {
  const { cards, authorizations, fund, balance } = setup();
  cards.set('Card:c', card('Card:c', { fundingSources: [FIRST] }));
  await fund(FIRST, 37 * 1_234 + 1_233);
  const decisions = await Promise.all(
    Array.from({ length: 100 }, () => authorizations.authorize(caller, 'Card:c', { amount: 1_234, merchant })),
  );
  expect(decisions.filter((d) => d.approved)).toHaveLength(37);
  expect(decisions.filter((d) => !d.approved).every((d) => !d.approved && d.reason === 'INSUFFICIENT_FUNDS')).toBe(
    true,
  );
  expect(await balance(FIRST)).toBe(1_233);
  expect(await balance(holdsAccount('USD', PLATFORM))).toBe(37 * 1_234);
});

test('sources are tried in order; a frozen card is declined CARD_PAUSED without touching the balance', async () => {
  const { cards, authorizations, fund, balance } = setup();
  cards.set('Card:o', card('Card:o'));
  await fund(FIRST, 500);
  await fund(SECOND, 5_000);
  const small = await authorizations.authorize(caller, 'Card:o', { amount: 400, merchant });
  expect(small.approved && small.transaction.accountId).toBe(FIRST);
  const large = await authorizations.authorize(caller, 'Card:o', { amount: 1_000, merchant });
  expect(large.approved && large.transaction.accountId).toBe(SECOND);
  expect([await balance(FIRST), await balance(SECOND)]).toEqual([100, 4_000]);

  cards.set('Card:o', card('Card:o', { state: 'FROZEN' }));
  expect(await authorizations.authorize(caller, 'Card:o', { amount: 1, merchant })).toMatchObject({
    approved: false,
    reason: 'CARD_PAUSED',
  });
  expect([await balance(FIRST), await balance(SECOND)]).toEqual([100, 4_000]);
});

test('authorization → partial clearing → clearing → partial return → full return, ledger exact', async () => {
  const { ledger, cards, authorizations, fund, balance, webhooks } = setup();
  cards.set(LIFE, card(LIFE, { fundingSources: [FIRST] }));
  await fund(FIRST, 10_000);
  const network = networkAccount('USD', PLATFORM);
  const holds = holdsAccount('USD', PLATFORM);
  const state = async () => [await balance(FIRST), await balance(holds), await balance(network)];

  const auth = await authorizations.authorize(caller, LIFE, { amount: 3_000, merchant });
  if (!auth.approved) throw new Error('declined');
  const id = auth.transaction.id;
  expect(await state()).toEqual([7_000, 3_000, 0]);

  expect(await authorizations.clear(caller, LIFE, id, 1_000)).toMatchObject({
    status: 'PARTIALLY_SETTLED',
    held: 2_000,
    settled: 1_000,
  });
  expect(await state()).toEqual([7_000, 2_000, 1_000]);
  expect(await authorizations.clear(caller, LIFE, id, 2_000)).toMatchObject({
    status: 'SETTLED',
    held: 0,
    settled: 3_000,
    settlements: { count: 2, totalAmount: 3_000 },
  });
  expect(await state()).toEqual([7_000, 0, 3_000]);

  expect(await authorizations.refund(caller, LIFE, id, 500)).toMatchObject({ status: 'SETTLED', refunded: 500 });
  expect(await state()).toEqual([7_500, 0, 2_500]);
  await expect(authorizations.refund(caller, LIFE, id, 2_501)).rejects.toMatchObject({ code: 'INVALID_STATE' });
  expect(await authorizations.refund(caller, LIFE, id, 2_500)).toMatchObject({
    status: 'REFUNDED',
    refunded: 3_000,
    refunds: { count: 2, totalAmount: 3_000 },
  });
  expect(await state()).toEqual([10_000, 0, 0]);
  // Every step balanced: the platform's USD balances still sum to zero.
  expect((await ledger.allBalances()).filter((b) => b.currency === 'USD').reduce((sum, b) => sum + b.available, 0))
    .toBe(0);

  const types = (await webhooks()).filter((e) => e.aggregateId === id).map((e) => e.type);
  expect(types).toEqual([
    'CARD_TRANSACTION.AUTHORIZED',
    'CARD_TRANSACTION.PARTIALLY_SETTLED',
    'CARD_TRANSACTION.SETTLED',
    'CARD_TRANSACTION.REFUNDED',
  ]);
  // Each webhook body as sent: valid against our document and the reference's CardTransactionWebhook.
  for (const event of (await webhooks()).filter((e) => e.aggregateId === id)) {
    const body = {
      id: 'Webhook:00000000-0000-4000-8000-000000000001',
      type: event.type,
      timestamp: new Date().toISOString(),
      data: event.data,
    };
    expect(webhookContractProblems(body)).toEqual([]);
  }
});

test('over-authorization clearing pulls the rest from the source, or ends in EXCEPTION when not covered', async () => {
  const { cards, authorizations, fund, balance } = setup();
  cards.set('Card:t', card('Card:t', { fundingSources: [FIRST] }));
  await fund(FIRST, 1_500);
  const tip = await authorizations.authorize(caller, 'Card:t', { amount: 1_000, merchant });
  if (!tip.approved) throw new Error('declined');
  expect(await authorizations.clear(caller, 'Card:t', tip.transaction.id, 1_200)).toMatchObject({
    status: 'SETTLED',
    settled: 1_200,
    pulls: { count: 1, totalAmount: 200 },
  });
  expect(await balance(FIRST)).toBe(300);

  const short = await authorizations.authorize(caller, 'Card:t', { amount: 300, merchant });
  if (!short.approved) throw new Error('declined');
  const exception = await authorizations.clear(caller, 'Card:t', short.transaction.id, 400);
  expect(exception).toMatchObject({
    status: 'EXCEPTION',
    exceptionReason: expect.stringContaining('post-hoc pull'),
    held: 300,
  });
  expect(await balance(FIRST)).toBe(0);
});

test('a zero-amount clearing releases the hold', async () => {
  const { cards, authorizations, fund, balance } = setup();
  cards.set('Card:z', card('Card:z', { fundingSources: [FIRST] }));
  await fund(FIRST, 900);
  const auth = await authorizations.authorize(caller, 'Card:z', { amount: 900, merchant });
  if (!auth.approved) throw new Error('declined');
  expect(await balance(FIRST)).toBe(0);
  expect(await authorizations.clear(caller, 'Card:z', auth.transaction.id, 0)).toMatchObject({
    status: 'SETTLED',
    held: 0,
    settled: 0,
  });
  expect(await balance(FIRST)).toBe(900);
  expect(await balance(holdsAccount('USD', PLATFORM))).toBe(0);
  await expect(authorizations.clear(caller, 'Card:z', auth.transaction.id, 1)).rejects.toMatchObject({
    code: 'INVALID_STATE',
  });
});

test('concurrent clearings on one transaction each apply once', async () => {
  const { cards, authorizations, fund, balance } = setup();
  cards.set('Card:k', card('Card:k', { fundingSources: [FIRST] }));
  await fund(FIRST, 1_000);
  const auth = await authorizations.authorize(caller, 'Card:k', { amount: 1_000, merchant });
  if (!auth.approved) throw new Error('declined');
  await Promise.all(Array.from({ length: 10 }, () => authorizations.clear(caller, 'Card:k', auth.transaction.id, 100)));
  expect(await authorizations.get(caller, 'Card:k', auth.transaction.id)).toMatchObject({
    status: 'SETTLED',
    settled: 1_000,
    settlements: { count: 10, totalAmount: 1_000 },
  });
  expect(await balance(networkAccount('USD', PLATFORM))).toBe(1_000);
});

test('a decision cut off after its hold: declined by recovery, the hold returned; a live loser declines', async () => {
  const store = createEmbeddedDocumentStore();
  const ledger = createLedger({
    store: createLedgerDocumentStore(store, () => new Date()).ledger,
    newEvent: createEventFactory(),
  });
  const txStore = createCardTransactionDocumentStore(store);
  let now = Date.parse('2026-05-08T14:30:00Z');
  const c = card('Card:r', { fundingSources: [FIRST, SECOND] });
  // The first run crashes right after its hold: its ledger step applies, its decision never records.
  const crashing = createCardAuthorizations({
    store: {
      ...txStore.port,
      decide: async () => {
        throw new Error('crash');
      },
    },
    ledger,
    newEvent: createEventFactory(),
    clock: () => new Date(now),
    card: async () => c,
    platformCustomerId: async () => 'holder-1',
  });
  const recovering = createCardAuthorizations({
    store: txStore.port,
    ledger,
    newEvent: createEventFactory(),
    clock: () => new Date(now),
    card: async () => c,
    platformCustomerId: async () => 'holder-1',
  });
  await ledger.post(
    PLATFORM,
    ledgerStep('fund/r', [{ account: FIRST, currency: 'USD', amount: 700 }, {
      account: systemAccount('settlement', 'USD', PLATFORM),
      currency: 'USD',
      amount: -700,
    }]),
  );
  await expect(crashing.authorize(caller, 'Card:r', { amount: 500, merchant })).rejects.toThrow('crash');
  const sum = async (account: string) =>
    (await ledger.allBalances()).filter((b) => b.account === account).reduce((s, b) => s + b.available, 0);
  expect(await sum(FIRST)).toBe(200);

  expect(await recovering.finishInterrupted(60_000)).toBe(0);
  now += 120_000;
  expect(await recovering.finishInterrupted(60_000)).toBe(1);
  expect([await sum(FIRST), await sum(SECOND), await sum(holdsAccount('USD', PLATFORM))]).toEqual([700, 0, 0]);
  const [entry] = await store.collection(CARD_TRANSACTIONS_COLLECTION).find({});
  expect(entry).toMatchObject({ decision: 'DECLINED', declineReason: 'DECISION_INTERRUPTED' });
  expect(entry.releasing).toBeUndefined();
  expect(await recovering.finishInterrupted(60_000)).toBe(0);
});

test('recovery gives back an interrupted hold exactly once, even after its markers moved to the archive', async () => {
  const store = createEmbeddedDocumentStore();
  let now = Date.parse('2026-05-08T14:30:00Z');
  const clock = () => new Date(now);
  const ledger = createLedger({
    store: createLedgerDocumentStore(store, clock).ledger,
    newEvent: createEventFactory(),
    clock,
  });
  const txStore = createCardTransactionDocumentStore(store);
  const c = card('Card:a', { fundingSources: [FIRST] });
  const deps = {
    ledger,
    newEvent: createEventFactory(),
    clock,
    card: async () => c,
    platformCustomerId: async () => 'holder-1',
  };
  const crashing = createCardAuthorizations({
    ...deps,
    store: {
      ...txStore.port,
      decide: async () => {
        throw new Error('crash');
      },
    },
  });
  const recovering = createCardAuthorizations({ ...deps, store: txStore.port });
  const fund = (tag: string) =>
    ledger.post(
      PLATFORM,
      ledgerStep(`fund/${tag}`, [
        { account: FIRST, currency: 'USD', amount: 10 },
        { account: systemAccount('settlement', 'USD', PLATFORM), currency: 'USD', amount: -10 },
      ]),
    );
  for (let i = 0; i < 50; i++) await fund(`before-${i}`);
  await expect(crashing.authorize(caller, 'Card:a', { amount: 300, merchant })).rejects.toThrow('crash');
  for (let i = 0; i < 50; i++) await fund(`after-${i}`);
  // Two archive passes a while apart move the busy balance's markers, the hold's among them, out of it.
  await ledger.archivePostings();
  now += 5_000;
  await ledger.archivePostings();
  const balance = async (account: string) =>
    (await ledger.allBalances()).filter((b) => b.account === account).reduce((s, b) => s + b.available, 0);
  expect(await balance(FIRST)).toBe(1_000 - 300);

  now += 120_000;
  expect(await recovering.finishInterrupted(60_000)).toBe(1);
  expect([await balance(FIRST), await balance(holdsAccount('USD', PLATFORM))]).toEqual([1_000, 0]);
  expect(await recovering.finishInterrupted(60_000)).toBe(0);
  expect(await balance(FIRST)).toBe(1_000);
});

/** The webhook bodies written for `id`, each checked against our document and the reference. */
async function checkedWebhooks(webhooks: () => Promise<DomainEvent[]>, id: string) {
  const events = (await webhooks()).filter((e) => e.aggregateId === id);
  for (const event of events) {
    const body = {
      id: 'Webhook:00000000-0000-4000-8000-000000000001',
      type: event.type,
      timestamp: new Date().toISOString(),
      data: event.data,
    };
    expect(webhookContractProblems(body)).toEqual([]);
  }
  return events;
}

test('a balance inquiry is a zero-amount authorization: approved with no ledger step, declined if frozen', async () => {
  const { cards, authorizations, balance, webhooks } = setup();
  cards.set(
    'Card:019542f5-b3e7-1d02-0000-000000000100',
    card('Card:019542f5-b3e7-1d02-0000-000000000100', { fundingSources: [FIRST] }),
  );
  const inquiry = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000100', {
    kind: 'BALANCE_INQUIRY',
    amount: 0,
    merchant,
  });
  expect(inquiry).toMatchObject({
    approved: true,
    transaction: { status: 'AUTHORIZED', authorizedAmount: 0, held: 0, accountId: FIRST },
  });
  expect(await balance(FIRST)).toBe(0);
  const [event] = await checkedWebhooks(webhooks, (inquiry as { transaction: { id: string } }).transaction.id);
  expect(event.data).toMatchObject({ status: 'AUTHORIZED', authorizedAmount: { amount: 0 } });
  await expect(
    authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000100', {
      kind: 'BALANCE_INQUIRY',
      amount: 5,
      merchant,
    }),
  ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  await expect(authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000100', { amount: 0, merchant }))
    .rejects.toMatchObject({ code: 'INVALID_INPUT' });
  cards.set(
    'Card:019542f5-b3e7-1d02-0000-000000000100',
    card('Card:019542f5-b3e7-1d02-0000-000000000100', { fundingSources: [FIRST], state: 'FROZEN' }),
  );
  expect(
    await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000100', {
      kind: 'BALANCE_INQUIRY',
      amount: 0,
      merchant,
    }),
  ).toMatchObject({ approved: false, reason: 'CARD_PAUSED' });
});

test('a financial authorization debits and settles in one step; credit kinds credit the source likewise', async () => {
  const { ledger, cards, authorizations, fund, balance, webhooks } = setup();
  cards.set('Card:019542f5-b3e7-1d02-0000-000000000101', card('Card:019542f5-b3e7-1d02-0000-000000000101'));
  const network = networkAccount('USD', PLATFORM);
  await fund(FIRST, 1_000);
  await fund(SECOND, 10_000);
  const atm = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000101', {
    kind: 'FINANCIAL_AUTHORIZATION',
    amount: 8_000,
    merchant,
  });
  expect(atm).toMatchObject({
    approved: true,
    transaction: {
      status: 'SETTLED',
      accountId: SECOND,
      held: 0,
      settled: 8_000,
      settlements: { count: 1, totalAmount: 8_000 },
      pulls: { count: 1, totalAmount: 8_000 },
    },
  });
  expect([
    await balance(FIRST),
    await balance(SECOND),
    await balance(network),
    await balance(holdsAccount('USD', PLATFORM)),
  ]).toEqual([1_000, 2_000, 8_000, 0]);
  expect((await checkedWebhooks(webhooks, (atm as { transaction: { id: string } }).transaction.id)).map((e) => e.type))
    .toEqual(['CARD_TRANSACTION.SETTLED']);
  expect(
    await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000101', {
      kind: 'FINANCIAL_AUTHORIZATION',
      amount: 5_000,
      merchant,
    }),
  ).toMatchObject({ approved: false, reason: 'INSUFFICIENT_FUNDS' });

  for (
    const kind of ['CREDIT_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE'] as const
  ) {
    const credit = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000101', {
      kind,
      amount: 100,
      merchant,
    });
    expect(credit).toMatchObject({
      approved: true,
      transaction: { status: 'SETTLED', direction: 'CREDIT', accountId: FIRST, settled: 100 },
    });
    const [event] = await checkedWebhooks(webhooks, (credit as { transaction: { id: string } }).transaction.id);
    expect(event.data).toMatchObject({
      type: 'CARD',
      direction: 'CREDIT',
      status: 'SETTLED',
      settledAmount: { amount: 100 },
    });
    await expect(
      authorizations.refund(
        caller,
        'Card:019542f5-b3e7-1d02-0000-000000000101',
        (credit as { transaction: { id: string } }).transaction.id,
        100,
      ),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });
  }
  expect([await balance(FIRST), await balance(network)]).toEqual([1_300, 7_700]);
  expect((await ledger.allBalances()).filter((b) => b.currency === 'USD').reduce((sum, b) => sum + b.available, 0))
    .toBe(0);
});

test('an authorization advice re-sizes the hold up (EXCEPTION if uncovered) and down, not below settled', async () => {
  const { cards, authorizations, fund, balance, webhooks } = setup();
  cards.set(
    'Card:019542f5-b3e7-1d02-0000-000000000102',
    card('Card:019542f5-b3e7-1d02-0000-000000000102', { fundingSources: [FIRST] }),
  );
  const holds = holdsAccount('USD', PLATFORM);
  await fund(FIRST, 5_000);
  const auth = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000102', {
    amount: 1_000,
    merchant,
  });
  if (!auth.approved) throw new Error('declined');
  const id = auth.transaction.id;
  expect(await authorizations.advise(caller, 'Card:019542f5-b3e7-1d02-0000-000000000102', id, 2_000)).toMatchObject({
    status: 'AUTHORIZED',
    authorizedAmount: 2_000,
    held: 2_000,
  });
  expect([await balance(FIRST), await balance(holds)]).toEqual([3_000, 2_000]);
  expect(await authorizations.clear(caller, 'Card:019542f5-b3e7-1d02-0000-000000000102', id, 500)).toMatchObject({
    status: 'PARTIALLY_SETTLED',
    held: 1_500,
  });
  await expect(authorizations.advise(caller, 'Card:019542f5-b3e7-1d02-0000-000000000102', id, 400)).rejects
    .toMatchObject({ code: 'INVALID_STATE' });
  expect(await authorizations.advise(caller, 'Card:019542f5-b3e7-1d02-0000-000000000102', id, 800)).toMatchObject({
    status: 'PARTIALLY_SETTLED',
    authorizedAmount: 800,
    held: 300,
  });
  expect([await balance(FIRST), await balance(holds)]).toEqual([4_200, 300]);
  expect(await authorizations.advise(caller, 'Card:019542f5-b3e7-1d02-0000-000000000102', id, 500)).toMatchObject({
    status: 'SETTLED',
    held: 0,
  });
  expect([await balance(FIRST), await balance(holds)]).toEqual([4_500, 0]);
  await expect(authorizations.advise(caller, 'Card:019542f5-b3e7-1d02-0000-000000000102', id, 900)).rejects
    .toMatchObject({ code: 'INVALID_STATE' });

  const big = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000102', {
    amount: 4_000,
    merchant,
  });
  if (!big.approved) throw new Error('declined');
  expect(await authorizations.advise(caller, 'Card:019542f5-b3e7-1d02-0000-000000000102', big.transaction.id, 5_000))
    .toMatchObject({ status: 'EXCEPTION', held: 4_000, exceptionReason: expect.stringContaining('no longer covers') });
  expect([await balance(FIRST), await balance(holds)]).toEqual([500, 4_000]);
  const types = (await checkedWebhooks(webhooks, id)).map((e) => e.type);
  expect(types).toEqual([
    'CARD_TRANSACTION.AUTHORIZED',
    'CARD_TRANSACTION.AUTHORIZED',
    'CARD_TRANSACTION.PARTIALLY_SETTLED',
    'CARD_TRANSACTION.PARTIALLY_SETTLED',
    'CARD_TRANSACTION.SETTLED',
  ]);
  expect((await checkedWebhooks(webhooks, big.transaction.id)).map((e) => e.type)).toEqual([
    'CARD_TRANSACTION.AUTHORIZED',
    'CARD_TRANSACTION.EXCEPTION',
  ]);
});

test('a return reversal takes the last return back from the source: REFUNDED → SETTLED; needs both', async () => {
  const { cards, authorizations, fund, balance, webhooks } = setup();
  cards.set(
    'Card:019542f5-b3e7-1d02-0000-000000000103',
    card('Card:019542f5-b3e7-1d02-0000-000000000103', { fundingSources: [FIRST] }),
  );
  const network = networkAccount('USD', PLATFORM);
  await fund(FIRST, 3_000);
  const auth = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000103', {
    amount: 3_000,
    merchant,
  });
  if (!auth.approved) throw new Error('declined');
  const id = auth.transaction.id;
  await authorizations.clear(caller, 'Card:019542f5-b3e7-1d02-0000-000000000103', id, 3_000);
  await expect(authorizations.reverseReturn(caller, 'Card:019542f5-b3e7-1d02-0000-000000000103', id)).rejects
    .toMatchObject({ code: 'INVALID_STATE' });
  await authorizations.refund(caller, 'Card:019542f5-b3e7-1d02-0000-000000000103', id, 1_000);
  await authorizations.refund(caller, 'Card:019542f5-b3e7-1d02-0000-000000000103', id, 2_000);
  expect([await balance(FIRST), await balance(network)]).toEqual([3_000, 0]);
  expect(await authorizations.reverseReturn(caller, 'Card:019542f5-b3e7-1d02-0000-000000000103', id)).toMatchObject({
    status: 'SETTLED',
    refunded: 1_000,
    refunds: { count: 1, totalAmount: 1_000 },
  });
  expect([await balance(FIRST), await balance(network)]).toEqual([1_000, 2_000]);
  // The first return (1 000) is next; the source now holds 1 000 elsewhere-spent money: spend it, and the reversal is
  // an EXCEPTION.
  const spend = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000103', {
    amount: 600,
    merchant,
  });
  expect(spend.approved).toBe(true);
  expect(await authorizations.reverseReturn(caller, 'Card:019542f5-b3e7-1d02-0000-000000000103', id)).toMatchObject({
    status: 'EXCEPTION',
    refunded: 1_000,
    exceptionReason: expect.stringContaining('return reversal'),
  });
  expect([await balance(FIRST), await balance(network)]).toEqual([400, 2_000]);
  expect((await checkedWebhooks(webhooks, id)).map((e) => e.type)).toEqual([
    'CARD_TRANSACTION.AUTHORIZED',
    'CARD_TRANSACTION.SETTLED',
    'CARD_TRANSACTION.REFUNDED',
    'CARD_TRANSACTION.SETTLED',
    'CARD_TRANSACTION.EXCEPTION',
  ]);
});

test('stale authorizations expire: hold given back, SETTLED with its webhook; fresh, settled ones stay', async () => {
  const store = createEmbeddedDocumentStore();
  const ledger = createLedger({
    store: createLedgerDocumentStore(store, () => new Date()).ledger,
    newEvent: createEventFactory(),
  });
  const txStore = createCardTransactionDocumentStore(store);
  let now = Date.parse('2026-05-08T14:30:00Z');
  const c = card('Card:019542f5-b3e7-1d02-0000-000000000104', { fundingSources: [FIRST] });
  const authorizations = createCardAuthorizations({
    store: txStore.port,
    ledger,
    newEvent: createEventFactory(),
    clock: () => new Date(now),
    card: async () => c,
    platformCustomerId: async () => 'holder-1',
  });
  await ledger.post(
    PLATFORM,
    ledgerStep('fund/s', [{ account: FIRST, currency: 'USD', amount: 5_000 }, {
      account: systemAccount('settlement', 'USD', PLATFORM),
      currency: 'USD',
      amount: -5_000,
    }]),
  );
  const sum = async (account: string) =>
    (await ledger.allBalances()).filter((b) => b.account === account).reduce((s, b) => s + b.available, 0);
  const old = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000104', {
    amount: 1_000,
    merchant,
  });
  const partly = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000104', {
    amount: 700,
    merchant,
  });
  const settled = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000104', {
    amount: 300,
    merchant,
  });
  if (!old.approved || !partly.approved || !settled.approved) throw new Error('declined');
  await authorizations.clear(caller, 'Card:019542f5-b3e7-1d02-0000-000000000104', partly.transaction.id, 200);
  await authorizations.clear(caller, 'Card:019542f5-b3e7-1d02-0000-000000000104', settled.transaction.id, 300);
  now += 60_000;
  const fresh = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000104', {
    amount: 100,
    merchant,
  });
  if (!fresh.approved) throw new Error('declined');
  expect(await sum(FIRST)).toBe(2_900);

  now += 30_000;
  // Two replicas' workers racing (a lapsed lease): each expiry is one conditional event, applied once.
  const replica = createCardAuthorizations({
    store: txStore.port,
    ledger,
    newEvent: createEventFactory(),
    clock: () => new Date(now),
    card: async () => c,
    platformCustomerId: async () => 'holder-1',
  });
  await Promise.all([authorizations.expireStale(60_000), replica.expireStale(60_000)]);
  expect(await sum(FIRST)).toBe(4_400);
  expect(await sum(holdsAccount('USD', PLATFORM))).toBe(100);
  expect(await authorizations.get(caller, 'Card:019542f5-b3e7-1d02-0000-000000000104', old.transaction.id))
    .toMatchObject({ status: 'SETTLED', held: 0, settled: 0 });
  expect(await authorizations.get(caller, 'Card:019542f5-b3e7-1d02-0000-000000000104', partly.transaction.id))
    .toMatchObject({ status: 'SETTLED', held: 0, settled: 200 });
  expect(await authorizations.get(caller, 'Card:019542f5-b3e7-1d02-0000-000000000104', fresh.transaction.id))
    .toMatchObject({ status: 'AUTHORIZED', held: 100 });
  expect(await authorizations.expireStale(60_000)).toBe(0);
  const expired = (await store.collection(CARD_TRANSACTIONS_COLLECTION).find({ _id: old.transaction.id }))[0];
  const types = ((expired._outbox as DomainEvent[] | undefined) ?? []).map((e) => e.type);
  expect(types.filter((t) => t === 'CARD_TRANSACTION.SETTLED')).toHaveLength(1);
});

test('a pull confirmed later shows pendingCount 1 until due; a failed one gives the hold back: EXCEPTION', async () => {
  const { cards, authorizations, fund, balance, webhooks } = setup();
  cards.set(
    'Card:019542f5-b3e7-1d02-0000-000000000105',
    card('Card:019542f5-b3e7-1d02-0000-000000000105', { fundingSources: [FIRST] }),
  );
  await fund(FIRST, 2_000);
  const later = new Date(Date.now() + 60_000).toISOString();
  const delayed = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000105', {
    amount: 500,
    merchant,
    pullConfirmAt: later,
  });
  if (!delayed.approved) throw new Error('declined');
  const [event] = await checkedWebhooks(webhooks, delayed.transaction.id);
  expect(event.data).toMatchObject({ pullSummary: { pendingCount: 1 } });
  expect(await authorizations.expireStale(3_600_000)).toBe(0);
  expect(
    await authorizations.confirmPull(
      caller,
      'Card:019542f5-b3e7-1d02-0000-000000000105',
      delayed.transaction.id,
      'CONFIRMED',
    ),
  ).toMatchObject({ status: 'AUTHORIZED', pendingPulls: 0 });

  const failing = await authorizations.authorize(caller, 'Card:019542f5-b3e7-1d02-0000-000000000105', {
    amount: 800,
    merchant,
  });
  if (!failing.approved) throw new Error('declined');
  expect(await balance(FIRST)).toBe(700);
  expect(
    await authorizations.confirmPull(
      caller,
      'Card:019542f5-b3e7-1d02-0000-000000000105',
      failing.transaction.id,
      'FAILED',
    ),
  ).toMatchObject({ status: 'EXCEPTION', held: 0, exceptionReason: expect.stringContaining('FAILED') });
  expect(await balance(FIRST)).toBe(1_500);
  expect((await checkedWebhooks(webhooks, failing.transaction.id)).map((e) => e.type)).toEqual([
    'CARD_TRANSACTION.AUTHORIZED',
    'CARD_TRANSACTION.EXCEPTION',
  ]);
});

test('a card credit past BALANCE_LIMIT: INVALID_AMOUNT, nothing recorded; one up to it is taken', async () => {
  const { cards, authorizations, fund, balance, webhooks, transactions } = setup();
  cards.set('Card:credit', card('Card:credit', { fundingSources: [FIRST] }));
  await fund(FIRST, BALANCE_LIMIT - 1_000);
  const near = await authorizations.authorize(caller, 'Card:credit', {
    kind: 'CREDIT_AUTHORIZATION',
    amount: 1_000,
    merchant,
  });
  expect(near.approved).toBe(true);
  expect(await balance(FIRST)).toBe(BALANCE_LIMIT);
  const recorded = { webhooks: (await webhooks()).length, transactions: await transactions() };

  for (
    const kind of ['CREDIT_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE'] as const
  ) {
    await expect(authorizations.authorize(caller, 'Card:credit', { kind, amount: 1, merchant })).rejects.toMatchObject({
      code: 'INVALID_AMOUNT',
    });
  }
  expect(await balance(FIRST)).toBe(BALANCE_LIMIT);
  expect({ webhooks: (await webhooks()).length, transactions: await transactions() }).toEqual(recorded);
  // Spending and crediting back within the bound go on.
  const spent = await authorizations.authorize(caller, 'Card:credit', { amount: 500, merchant });
  expect(spent.approved).toBe(true);
  expect(
    (await authorizations.authorize(caller, 'Card:credit', { kind: 'CREDIT_AUTHORIZATION', amount: 500, merchant }))
      .approved,
  ).toBe(true);
  expect(await balance(FIRST)).toBe(BALANCE_LIMIT);
});

test('returning all that settled while some is held leaves the authorization open until its hold ends', async () => {
  const { cards, authorizations, fund, balance } = setup();
  cards.set('Card:r', card('Card:r', { fundingSources: [FIRST] }));
  await fund(FIRST, 1_000);
  const auth = await authorizations.authorize(caller, 'Card:r', { amount: 278, merchant });
  if (!auth.approved) throw new Error('declined');
  const id = auth.transaction.id;
  await authorizations.clear(caller, 'Card:r', id, 139);
  expect(await authorizations.refund(caller, 'Card:r', id, 139)).toMatchObject({
    status: 'PARTIALLY_SETTLED',
    held: 139,
    refunded: 139,
  });
  // Still open: the stale-hold expiry (a zero clearing) gives the rest back, and nothing settled is kept.
  expect(await authorizations.clear(caller, 'Card:r', id, 0)).toMatchObject({ status: 'REFUNDED', held: 0 });
  expect(await balance(FIRST)).toBe(1_000);
  expect(await balance(holdsAccount('USD', PLATFORM))).toBe(0);
});

test('a return reversal while part is still held leaves the authorization PARTIALLY_SETTLED', async () => {
  const { cards, authorizations, fund, balance } = setup();
  cards.set('Card:v', card('Card:v', { fundingSources: [FIRST] }));
  await fund(FIRST, 1_000);
  const auth = await authorizations.authorize(caller, 'Card:v', { amount: 400, merchant });
  if (!auth.approved) throw new Error('declined');
  const id = auth.transaction.id;
  await authorizations.clear(caller, 'Card:v', id, 100);
  await authorizations.refund(caller, 'Card:v', id, 40);
  await authorizations.refund(caller, 'Card:v', id, 60);
  expect(await authorizations.reverseReturn(caller, 'Card:v', id)).toMatchObject({
    status: 'PARTIALLY_SETTLED',
    held: 300,
    refunded: 40,
  });
  expect(await authorizations.clear(caller, 'Card:v', id, 300)).toMatchObject({ status: 'SETTLED', held: 0 });
  expect(await balance(FIRST)).toBe(1_000 - 400 + 40);
});
