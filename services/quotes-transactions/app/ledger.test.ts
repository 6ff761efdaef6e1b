import { createEventFactory } from '../../../lib/bus/event-factory';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { ledgerStep, systemAccount } from '../domain/ledger-postings';
import { createLedgerDocumentStore } from '../store/ledger-document-store';
import { APPLIED_WINDOW } from '../store/ledger-document-store';
import { createLedger, StepNeedsReconciliation } from './ledger';

const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
const ALICE = 'InternalAccount:aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const BOB = 'InternalAccount:bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const settlement = systemAccount('settlement', 'USD', PLATFORM);
const transit = systemAccount('transit', 'USD', PLATFORM);

function setup() {
  const store = createEmbeddedDocumentStore();
  let now = new Date('2025-10-13T12:00:00Z');
  const { ledger: ledgerStore, collection } = createLedgerDocumentStore(store, () => now);
  const ledger = createLedger({ store: ledgerStore, newEvent: createEventFactory(), clock: () => now });
  return { ledger, ledgerStore, collection, advance: (ms: number) => { now = new Date(now.getTime() + ms); } };
}

const fund = (key: string, account: string, amount: number) =>
  ledgerStep(key, [{ account: settlement, currency: 'USD', amount: -amount }, { account, currency: 'USD', amount }]);
const debit = (key: string, account: string, amount: number) =>
  ledgerStep(key, [{ account, currency: 'USD', amount: -amount }, { account: transit, currency: 'USD', amount }]);

async function sumsByCurrency(ledger: ReturnType<typeof setup>['ledger']) {
  const sums: Record<string, number> = {};
  for (const b of await ledger.allBalances()) sums[b.currency] = (sums[b.currency] ?? 0) + b.available;
  return sums;
}

test('a funded account is debited once per step, and every currency sums to zero', async () => {
  const { ledger } = setup();
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 10_000));
  expect(await ledger.applyStep(PLATFORM, debit('tx-1/debit', ALICE, 2_500))).toBe('APPLIED');
  expect(await ledger.applyStep(PLATFORM, debit('tx-1/debit', ALICE, 2_500))).toBe('APPLIED'); // replay
  expect(await ledger.getBalances([ALICE, BOB], PLATFORM)).toEqual([
    { accountId: ALICE, currency: 'USD', available: 7_500, total: 7_500 },
    { accountId: BOB, currency: '', available: 0, total: 0 },
  ]);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
});

test('50 concurrent debits on one balance: never negative, the total exact', async () => {
  const { ledger, collection } = setup();
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 1_000));
  let lowest = Infinity;
  const observer = setInterval(() => void collection.findOne({ _id: ALICE }).then((d) => { lowest = Math.min(lowest, d!.available); }), 0);
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => ledger.applyStep(PLATFORM, debit(`tx-${i}/debit`, ALICE, 30))));
  clearInterval(observer);
  const applied = results.filter((r) => r === 'APPLIED').length;
  expect(applied).toBe(33);
  expect(results.filter((r) => r === 'VOIDED')).toHaveLength(17);
  const [alice] = await ledger.getBalances([ALICE]);
  expect(alice.available).toBe(1_000 - 33 * 30);
  expect(lowest).toBeGreaterThanOrEqual(0);
  expect((await ledger.allBalances()).find((b) => b.account === transit)!.available).toBe(33 * 30);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
});

test('the same step raced by many processes applies once', async () => {
  const { ledger } = setup();
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 1_000));
  const results = await Promise.all(Array.from({ length: 20 }, () => ledger.applyStep(PLATFORM, debit('tx-1/debit', ALICE, 600))));
  expect(new Set(results)).toEqual(new Set(['APPLIED']));
  expect((await ledger.getBalances([ALICE]))[0].available).toBe(400);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
});

test('a step left half-done by a crash is completed by running it again, never doubled', async () => {
  const { ledger, ledgerStore } = setup();
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 1_000));
  const step = debit('tx-1/debit', ALICE, 700);
  // The process died after the debit and before the credit.
  await ledgerStore.apply({ platformId: PLATFORM, posting: step.postings[0], marker: 'tx-1/debit#0', guarded: true, events: [], since: Date.parse('2025-10-13T12:00:00Z') });
  expect(await sumsByCurrency(ledger)).toEqual({ USD: -700 });
  expect(await ledger.applyStep(PLATFORM, step)).toBe('APPLIED');
  expect((await ledger.getBalances([ALICE]))[0].available).toBe(300);
  expect((await ledger.allBalances()).find((b) => b.account === transit)!.available).toBe(700);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
});

test('a refused debit stays refused: funding the account later does not let a replay through', async () => {
  const { ledger } = setup();
  const step = debit('tx-1/debit', ALICE, 500);
  expect(await ledger.applyStep(PLATFORM, step)).toBe('VOIDED');
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 1_000));
  expect(await ledger.applyStep(PLATFORM, step)).toBe('VOIDED');
  expect((await ledger.getBalances([ALICE]))[0].available).toBe(1_000);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
});

test('an unbalanced step is refused before anything moves', async () => {
  const { ledger } = setup();
  const unbalanced = { key: 'bad', postings: [{ account: ALICE, currency: 'USD', amount: 5 }, { account: settlement, currency: 'USD', amount: -4 }] };
  await expect(ledger.applyStep(PLATFORM, unbalanced)).rejects.toThrow(/unbalanced/);
  expect(await ledger.allBalances()).toEqual([]);
});

test('a journaled step interrupted before its postings is finished by recovery', async () => {
  const { ledger, ledgerStore, advance } = setup();
  const step = fund('fund-1', ALICE, 1_000);
  await ledgerStore.journal(PLATFORM, step, '2025-10-13T12:00:00.000Z');
  await ledgerStore.apply({ platformId: PLATFORM, posting: step.postings[0], marker: 'fund-1#0', guarded: false, events: [], since: Date.parse('2025-10-13T12:00:00Z') });
  advance(60_000);
  expect(await ledger.recoverJournal(30_000)).toBe(1);
  expect(await ledger.recoverJournal(30_000)).toBe(0);
  expect((await ledger.getBalances([ALICE]))[0].available).toBe(1_000);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
});

test('a posting in another currency than the account holds is refused', async () => {
  const { ledger } = setup();
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 1_000));
  const eur = ledgerStep('x', [{ account: systemAccount('settlement', 'EUR', PLATFORM), currency: 'EUR', amount: -5 }, { account: ALICE, currency: 'EUR', amount: 5 }]);
  await expect(ledger.applyStep(PLATFORM, eur)).rejects.toThrow(/holds USD/);
});

test('a step older than the posting window is never re-applied on a guess: it needs reconciliation', async () => {
  const { ledger, advance } = setup();
  await ledger.post(PLATFORM, fund('fund-0', ALICE, 10_000));
  const startedAt = '2025-10-13T12:00:00.000Z';
  advance(1_000);
  for (let i = 0; i < APPLIED_WINDOW; i++) await ledger.applyStep(PLATFORM, fund(`fund-${i + 1}`, ALICE, 1));
  await expect(ledger.applyStep(PLATFORM, debit('old/debit', ALICE, 5), startedAt)).rejects.toBeInstanceOf(StepNeedsReconciliation);
  // A step that started within the window still applies.
  expect(await ledger.applyStep(PLATFORM, debit('new/debit', ALICE, 5))).toBe('APPLIED');
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
}, 30_000);

test('system accounts are spread over shards; their balances add up', async () => {
  const { ledger, collection } = setup();
  for (let i = 0; i < 40; i++) await ledger.post(PLATFORM, fund(`f-${i}`, ALICE, 10));
  const shards = await collection.find({ account: settlement });
  expect(shards.length).toBeGreaterThan(1);
  expect((await ledger.allBalances()).find((b) => b.account === settlement)!.available).toBe(-400);
});
