import { createEventFactory } from '../../../../lib/bus/event-factory';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { Card } from '../../cards/domain/card';
import { holdStep } from '../../cards/domain/card-transaction';
import { ledgerStep, systemAccount } from '../domain/ledger-postings';
import {
  CARD_TRANSACTIONS_COLLECTION,
  createCardTransactionDocumentStore,
} from '../../cards/store/card-transaction-document-store';
import { createLedgerDocumentStore } from '../store/ledger-document-store';
import { createLedgerSnapshotReader } from '../store/ledger-snapshot-reader';
import { createCardAuthorizations } from '../../cards/app/card-authorizations';
import { createLedger } from './ledger';
import { createLedgerAudit } from './ledger-audit';

const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
const caller = { platformId: PLATFORM };
const FIRST = 'InternalAccount:aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const SECOND = 'InternalAccount:bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };
const settlement = systemAccount('settlement', 'USD', PLATFORM);

function setup() {
  const store = createEmbeddedDocumentStore();
  let now = Date.parse('2026-05-08T14:30:00Z');
  const clock = () => new Date(now);
  const ledger = createLedger({
    store: createLedgerDocumentStore(store, clock).ledger,
    newEvent: createEventFactory(),
    clock,
  });
  const card: Card = {
    id: 'Card:1',
    platformId: PLATFORM,
    cardholderId: 'Customer:1',
    platformCardId: 'c1',
    state: 'ACTIVE',
    stateReason: null,
    form: 'VIRTUAL',
    fundingSources: [FIRST, SECOND],
    currency: 'USD',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const cards = createCardAuthorizations({
    store: createCardTransactionDocumentStore(store).port,
    ledger,
    newEvent: createEventFactory(),
    clock,
    card: async () => card,
    platformCustomerId: async () => 'holder-1',
  });
  const fund = (tag: string, account: string, amount: number) =>
    ledger.post(
      PLATFORM,
      ledgerStep(`fund/${tag}`, [
        { account, currency: 'USD', amount },
        { account: settlement, currency: 'USD', amount: -amount },
      ]),
    );
  const audit = createLedgerAudit({ source: createLedgerSnapshotReader(store) });
  return {
    store,
    ledger,
    cards,
    fund,
    audit,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

test("a ledger moved only by its owners' steps audits clean: funding, holds, clearings, returns, advices", async () => {
  const { cards, fund, audit } = setup();
  await fund('first', FIRST, 1_000);
  await fund('second', SECOND, 5_000);
  const small = await cards.authorize(caller, 'Card:1', { amount: 400, merchant });
  const large = await cards.authorize(caller, 'Card:1', { amount: 2_000, merchant }); // FIRST refuses it: SECOND holds
  const open = await cards.authorize(caller, 'Card:1', { amount: 300, merchant });
  if (!small.approved || !large.approved || !open.approved) throw new Error('not approved');
  await cards.clear(caller, 'Card:1', small.transaction.id, 450); // 50 pulled above the hold
  await cards.refund(caller, 'Card:1', small.transaction.id, 100);
  await cards.advise(caller, 'Card:1', large.transaction.id, 2_500);
  await cards.clear(caller, 'Card:1', large.transaction.id, 1_000);
  expect(await cards.authorize(caller, 'Card:1', { amount: 9_000, merchant })).toMatchObject({
    approved: false,
    reason: 'INSUFFICIENT_FUNDS',
  });

  const report = await audit.run();
  expect(report.problems).toEqual([]);
  expect(report).toMatchObject({ clean: true, inFlight: [] });
  expect(report.counts).toMatchObject({ cardTransactions: 4, journalSteps: 2, internalAccounts: 2 });
});

test('a hold applied twice (replayed after its marker was archived) is found: marker twice, sums off', async () => {
  const { ledger, cards, fund, audit, advance } = setup();
  for (let i = 0; i < 70; i++) await fund(`f-${i}`, FIRST, 10);
  const decision = await cards.authorize(caller, 'Card:1', { amount: 300, merchant });
  if (!decision.approved) throw new Error('not approved');
  for (let i = 0; i < 70; i++) await fund(`g-${i}`, FIRST, 10);
  await ledger.archivePostings();
  advance(5_000);
  await ledger.archivePostings();
  expect((await audit.run()).clean).toBe(true);

  // What recovery did when it replayed a hold from the time of its pass rather than the hold's.
  await ledger.applyStep(
    PLATFORM,
    holdStep({
      transactionId: decision.transaction.id,
      attempt: 0,
      platformId: PLATFORM,
      accountId: FIRST,
      currency: 'USD',
      amount: 300,
    }),
  );
  const report = await audit.run();
  expect(report.clean).toBe(false);
  expect(report.problems.map((p) => p.check).sort()).toEqual(['ACCOUNT_POSTINGS', 'CURRENCY_SUM', 'MARKER_TWICE']);
  expect(report.problems.find((p) => p.check === 'MARKER_TWICE')?.subject).toBe(`${decision.transaction.id}/hold/0#0`);
});

test('a posting that no owner explains is reported, with the balance it puts off', async () => {
  const { ledger, fund, audit } = setup();
  await fund('first', FIRST, 1_000);
  await ledger.applyStep(
    PLATFORM,
    ledgerStep('stray/step', [{ account: FIRST, currency: 'USD', amount: -100 }, {
      account: settlement,
      currency: 'USD',
      amount: 100,
    }]),
  );
  const report = await audit.run();
  expect(report.problems).toEqual([
    expect.objectContaining({ check: 'ACCOUNT_POSTINGS', subject: FIRST }),
    expect.objectContaining({ check: 'ACCOUNT_POSTINGS', subject: 'stray/step#0' }),
  ]);
});

test('a card transaction closed while part of its authorization is still held is reported: OWNER_STATE', async () => {
  const { store, cards, fund, audit } = setup();
  await fund('first', FIRST, 1_000);
  const auth = await cards.authorize(caller, 'Card:1', { amount: 278, merchant });
  if (!auth.approved) throw new Error('not approved');
  await cards.clear(caller, 'Card:1', auth.transaction.id, 139);
  await cards.refund(caller, 'Card:1', auth.transaction.id, 139);
  expect((await audit.run()).clean).toBe(true);

  // What a return once did: every settled cent back, so REFUNDED, though 139 were still held and never expired.
  await store.collection(CARD_TRANSACTIONS_COLLECTION).updateOne({ _id: auth.transaction.id }, {
    $set: { status: 'REFUNDED' },
  });
  expect((await audit.run()).problems).toEqual([{
    check: 'OWNER_STATE',
    subject: auth.transaction.id,
    detail: `is REFUNDED yet holds 139 USD on ${FIRST}`,
  }]);
});
