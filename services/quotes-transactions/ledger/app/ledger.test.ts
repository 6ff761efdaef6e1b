import { createEventFactory } from '../../../../lib/bus/event-factory';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { BALANCE_LIMIT, BalanceOutOfRange, ledgerStep, systemAccount } from '../domain/ledger-postings';
import type { Doc, DocumentCollection, DocumentStore, Filter, Projection } from '../../../../lib/store/document-store';
import {
  ARCHIVE_AT,
  ARCHIVE_COLLECTION,
  ARCHIVE_MIN_AGE_MS,
  BALANCES_COLLECTION,
  balanceRecordsOf,
  createLedgerDocumentStore,
} from '../store/ledger-document-store';
import { createLedger, StepNeedsReconciliation } from './ledger';

const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
const ALICE = 'InternalAccount:aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const BOB = 'InternalAccount:bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const settlement = systemAccount('settlement', 'USD', PLATFORM);
const transit = systemAccount('transit', 'USD', PLATFORM);

/**
 * Runs `hook` once, right after the next read of `collection` by `method` and before its answer is
 * used: the archive's lookups (findOne), or the balance documents an archive pass scans (find).
 */
function pausingReads(store: DocumentStore, collection: string, method: 'find' | 'findOne') {
  let hook: (() => Promise<void>) | undefined;
  const wrapped: DocumentStore = {
    ...store,
    collection<T extends Doc = Doc>(name: string) {
      const real = store.collection<T>(name);
      if (name !== collection) return real;
      return Object.assign(Object.create(real) as DocumentCollection<T>, {
        async [method](filter: Filter, options?: { projection?: Projection }) {
          const found = await (real[method] as (f: Filter, o?: { projection?: Projection }) => Promise<unknown>)
            .call(real, filter, options);
          const run = hook;
          hook = undefined;
          await run?.();
          return found;
        },
      });
    },
  };
  return {
    store: wrapped,
    onNextRead: (fn: () => Promise<void>) => {
      hook = fn;
    },
  };
}

function setup(store: DocumentStore = createEmbeddedDocumentStore()) {
  let now = new Date('2025-10-13T12:00:00Z');
  const { ledger: ledgerStore, collection, archive } = createLedgerDocumentStore(store, () => now);
  const ledger = createLedger({ store: ledgerStore, newEvent: createEventFactory(), clock: () => now });
  return {
    ledger,
    ledgerStore,
    collection,
    archive,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
    now: () => now.toISOString(),
  };
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
  const observer = setInterval(() =>
    void collection.findOne({ _id: ALICE }).then((d) => {
      lowest = Math.min(lowest, d!.available);
    }), 0);
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) => ledger.applyStep(PLATFORM, debit(`tx-${i}/debit`, ALICE, 30))),
  );
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
  const results = await Promise.all(
    Array.from({ length: 20 }, () => ledger.applyStep(PLATFORM, debit('tx-1/debit', ALICE, 600))),
  );
  expect(new Set(results)).toEqual(new Set(['APPLIED']));
  expect((await ledger.getBalances([ALICE]))[0].available).toBe(400);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
});

test('a step left half-done by a crash is completed by running it again, never doubled', async () => {
  const { ledger, ledgerStore } = setup();
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 1_000));
  const step = debit('tx-1/debit', ALICE, 700);
  // The process died after the debit and before the credit.
  await ledgerStore.apply({
    platformId: PLATFORM,
    posting: step.postings[0],
    marker: 'tx-1/debit#0',
    guarded: true,
    events: [],
    since: Date.parse('2025-10-13T12:00:00Z'),
  });
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
  const unbalanced = {
    key: 'bad',
    postings: [{ account: ALICE, currency: 'USD', amount: 5 }, { account: settlement, currency: 'USD', amount: -4 }],
  };
  await expect(ledger.applyStep(PLATFORM, unbalanced)).rejects.toThrow(/unbalanced/);
  expect(await ledger.allBalances()).toEqual([]);
});

test('a journaled step interrupted before its postings is finished by recovery', async () => {
  const { ledger, ledgerStore, advance } = setup();
  const step = fund('fund-1', ALICE, 1_000);
  await ledgerStore.journal(PLATFORM, step, '2025-10-13T12:00:00.000Z');
  // The process died after the step's system postings (one write) and before the credit.
  await ledgerStore.applySystem({
    platformId: PLATFORM,
    postings: [step.postings[0]],
    marker: 'fund-1#system',
    since: Date.parse('2025-10-13T12:00:00Z'),
  });
  advance(60_000);
  expect(await ledger.recoverJournal(30_000)).toBe(1);
  expect(await ledger.recoverJournal(30_000)).toBe(0);
  expect((await ledger.getBalances([ALICE]))[0].available).toBe(1_000);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
});

describe('balances stay within BALANCE_LIMIT (below 2^53)', () => {
  const credit = (key: string, account: string, amount: number) =>
    ledgerStep(key, [{ account, currency: 'USD', amount }, { account: settlement, currency: 'USD', amount: -amount }]);
  const transfer = (key: string, from: string, to: string, amount: number) =>
    ledgerStep(key, [{ account: from, currency: 'USD', amount: -amount }, { account: to, currency: 'USD', amount }]);
  const balance = async (ledger: ReturnType<typeof setup>['ledger'], account: string) =>
    (await ledger.getBalances([account]))[0].available;

  test('a credit past the limit is refused INVALID_AMOUNT, nothing moved, and stays refused on a rerun', async () => {
    const { ledger } = setup();
    expect(await ledger.applyStep(PLATFORM, credit('card/credit/1', ALICE, BALANCE_LIMIT - 100))).toBe('APPLIED');
    expect(await ledger.applyStep(PLATFORM, credit('card/credit/2', ALICE, 100))).toBe('APPLIED');
    expect(await balance(ledger, ALICE)).toBe(BALANCE_LIMIT);

    const refused = ledger.applyStep(PLATFORM, credit('card/credit/3', ALICE, 100));
    await expect(refused).rejects.toBeInstanceOf(BalanceOutOfRange);
    await expect(ledger.applyStep(PLATFORM, credit('card/credit/3', ALICE, 100))).resolves.toBe('VOIDED');
    await expect(ledger.assertCreditFits(PLATFORM, ALICE, 'USD', 1)).rejects.toMatchObject({ code: 'INVALID_AMOUNT' });
    expect(await balance(ledger, ALICE)).toBe(BALANCE_LIMIT);
    expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
  });

  test('concurrent credits never take a balance past the limit', async () => {
    const { ledger } = setup();
    await ledger.applyStep(PLATFORM, credit('fill', ALICE, BALANCE_LIMIT - 1_000));
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => ledger.applyStep(PLATFORM, credit(`race/${i}`, ALICE, 100))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(
      Array(10).fill('INVALID_AMOUNT'),
    );
    expect(await balance(ledger, ALICE)).toBe(BALANCE_LIMIT);
    expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
  });

  test('a step whose later credit would pass the limit is voided before its debit moves anything', async () => {
    const { ledger } = setup();
    await ledger.applyStep(PLATFORM, credit('fill-alice', ALICE, 5_000));
    await ledger.applyStep(PLATFORM, credit('fill-bob', BOB, BALANCE_LIMIT - 10));
    expect(await ledger.applyStep(PLATFORM, transfer('t/1', ALICE, BOB, 100))).toBe('VOIDED');
    expect(await ledger.applyStep(PLATFORM, transfer('t/1', ALICE, BOB, 100))).toBe('VOIDED');
    expect(await ledger.applyStep(PLATFORM, transfer('t/2', ALICE, BOB, 10))).toBe('APPLIED');
    expect([await balance(ledger, ALICE), await balance(ledger, BOB)]).toEqual([4_990, BALANCE_LIMIT]);
  });

  test('a posting larger than the limit is refused before anything moves', () => {
    expect(() => credit('huge', ALICE, BALANCE_LIMIT + 1)).toThrow(BalanceOutOfRange);
    expect(BALANCE_LIMIT).toBeLessThan(Number.MAX_SAFE_INTEGER);
  });
});

test('a posting in another currency than the account holds is refused', async () => {
  const { ledger } = setup();
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 1_000));
  const eur = ledgerStep('x', [{ account: systemAccount('settlement', 'EUR', PLATFORM), currency: 'EUR', amount: -5 }, {
    account: ALICE,
    currency: 'EUR',
    amount: 5,
  }]);
  await expect(ledger.applyStep(PLATFORM, eur)).rejects.toThrow(/holds USD/);
});

describe('postings remembered for good: busy balances move their markers to the archive', () => {
  const T0 = '2025-10-13T12:00:00.000Z';

  /** `count` fundings of ALICE, each a moment apart, with an archive pass after each batch. */
  async function busy(h: ReturnType<typeof setup>, count: number, tag: string) {
    for (let i = 0; i < count; i++) {
      await h.ledger.applyStep(PLATFORM, fund(`${tag}-${i}`, ALICE, 1));
      h.advance(10);
      if (i % 50 === 49) await h.ledger.archivePostings();
    }
    h.advance(ARCHIVE_MIN_AGE_MS);
    await h.ledger.archivePostings();
  }

  test('a journaled step posted again (retry after a crash) applies from its first journaling: once', async () => {
    const h = setup();
    await h.ledger.post(PLATFORM, fund('fund-0', ALICE, 10_000));
    expect(await h.ledger.post(PLATFORM, debit('op-1/fund', ALICE, 700))).toBe('APPLIED');
    h.advance(1);
    await busy(h, 200, 'busy');
    expect(await h.ledger.post(PLATFORM, debit('op-1/fund', ALICE, 700))).toBe('APPLIED');
    expect(await h.ledger.recoverJournal(0)).toBe(0);
    expect((await h.ledger.getBalances([ALICE]))[0].available).toBe(10_000 - 700 + 200);
    expect(await sumsByCurrency(h.ledger)).toEqual({ USD: 0 });
  });

  test(
    'a step replayed after its markers were archived applies nothing twice; a step never applied applies once',
    async () => {
      const h = setup();
      await h.ledger.post(PLATFORM, fund('fund-0', ALICE, 10_000));
      expect(await h.ledger.applyStep(PLATFORM, debit('old/debit', ALICE, 700), T0)).toBe('APPLIED');
      h.advance(1);
      await busy(h, 3 * ARCHIVE_AT, 'busy');
      const alice = await h.collection.findOne({ _id: ALICE });
      expect(alice!.applied).not.toContain('old/debit#0');
      expect(await h.archive.countDocuments({ balance: ALICE, markers: 'old/debit#0' })).toBe(1);

      expect(await h.ledger.applyStep(PLATFORM, debit('old/debit', ALICE, 700), T0)).toBe('APPLIED');
      expect(await h.ledger.applyStep(PLATFORM, debit('never/debit', ALICE, 300), T0)).toBe('APPLIED');
      expect(await h.ledger.applyStep(PLATFORM, debit('never/debit', ALICE, 300), T0)).toBe('APPLIED');
      expect((await h.ledger.getBalances([ALICE]))[0].available).toBe(10_000 + 3 * ARCHIVE_AT - 700 - 300);
      expect(await sumsByCurrency(h.ledger)).toEqual({ USD: 0 });
    },
    30_000,
  );

  test('a step a crash left half-done is completed after its debit was archived', async () => {
    const h = setup();
    await h.ledger.post(PLATFORM, fund('fund-0', ALICE, 1_000));
    const step = debit('tx-1/debit', ALICE, 700);
    await h.ledgerStore.apply({
      platformId: PLATFORM,
      posting: step.postings[0],
      marker: 'tx-1/debit#0',
      guarded: true,
      events: [],
      since: Date.parse(T0),
    });
    h.advance(1);
    await busy(h, 2 * ARCHIVE_AT, 'busy');
    expect(await h.archive.countDocuments({ markers: 'tx-1/debit#0' })).toBe(1);
    expect(await h.ledger.applyStep(PLATFORM, step, T0)).toBe('APPLIED');
    expect((await h.ledger.getBalances([ALICE]))[0].available).toBe(1_000 + 2 * ARCHIVE_AT - 700);
    expect((await h.ledger.allBalances()).find((b) => b.account === transit)!.available).toBe(700);
    expect(await sumsByCurrency(h.ledger)).toEqual({ USD: 0 });
  }, 30_000);

  test('a refused debit stays refused after its void was archived', async () => {
    const h = setup();
    expect(await h.ledger.applyStep(PLATFORM, debit('tx-1/debit', ALICE, 500), T0)).toBe('VOIDED');
    h.advance(1);
    await busy(h, 2 * ARCHIVE_AT, 'busy');
    expect(await h.archive.countDocuments({ markers: 'tx-1/debit#0!void' })).toBe(1);
    expect(await h.ledger.applyStep(PLATFORM, debit('tx-1/debit', ALICE, 500), T0)).toBe('VOIDED');
    expect((await h.ledger.getBalances([ALICE]))[0].available).toBe(2 * ARCHIVE_AT);
  }, 30_000);

  test('archive passes racing replays, refusals and new postings: every step exactly once', async () => {
    const h = setup();
    await h.ledger.post(PLATFORM, fund('fund-0', ALICE, 100_000));
    for (let i = 0; i < 40; i++) await h.ledger.applyStep(PLATFORM, debit(`early-${i}/debit`, ALICE, 10), T0);
    h.advance(ARCHIVE_MIN_AGE_MS);
    for (let round = 0; round < 20; round++) {
      const work: Array<Promise<unknown>> = [h.ledger.archivePostings()];
      for (let i = 0; i < 40; i++) work.push(h.ledger.applyStep(PLATFORM, debit(`early-${i}/debit`, ALICE, 10), T0));
      for (let i = 0; i < 20; i++) {
        work.push(h.ledger.applyStep(PLATFORM, debit(`late-${round}-${i}/debit`, ALICE, 5), T0));
      }
      for (let i = 0; i < 40; i++) work.push(h.ledger.applyStep(PLATFORM, fund(`more-${round}-${i}`, ALICE, 1)));
      work.push(h.ledger.archivePostings());
      await Promise.all(work);
      h.advance(ARCHIVE_MIN_AGE_MS / 2);
    }
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 20; i++) {
        expect(await h.ledger.applyStep(PLATFORM, debit(`late-${round}-${i}/debit`, ALICE, 5), T0)).toBe('APPLIED');
      }
    }
    expect((await h.ledger.getBalances([ALICE]))[0].available).toBe(100_000 - 40 * 10 - 20 * 20 * 5 + 20 * 40);
    expect(await h.archive.countDocuments({ balance: ALICE })).toBeGreaterThan(0);
    expect(await sumsByCurrency(h.ledger)).toEqual({ USD: 0 });
    // 100 writers on one balance each round, every write acknowledged after its group's commit: most
    // conditional updates lose and retry (about 8 s on a quiet machine, 30 s under load).
  }, 120_000);

  test(
    'a replay that searched the archive before an archive pass moved its marker there does not apply it again',
    async () => {
      const pausing = pausingReads(createEmbeddedDocumentStore(), ARCHIVE_COLLECTION, 'findOne');
      const h = setup(pausing.store);
      await h.ledger.post(PLATFORM, fund('fund-0', ALICE, 10_000));
      h.advance(1);
      await busy(h, 2 * ARCHIVE_AT, 'busy');
      const step = debit('tx-1/debit', ALICE, 700);
      // The replay finds the debit nowhere; before it writes, the original run applies it and a pass archives it.
      pausing.onNextRead(async () => {
        await h.ledgerStore.apply({
          platformId: PLATFORM,
          posting: step.postings[0],
          marker: 'tx-1/debit#0',
          guarded: true,
          events: [],
          since: Date.parse(T0),
        });
        h.advance(ARCHIVE_MIN_AGE_MS + ARCHIVE_AT);
        await busy(h, ARCHIVE_AT, 'more');
        expect(await h.archive.countDocuments({ markers: 'tx-1/debit#0' })).toBe(1);
      });
      expect(await h.ledger.applyStep(PLATFORM, step, T0)).toBe('APPLIED');
      expect((await h.ledger.getBalances([ALICE]))[0].available).toBe(10_000 + 3 * ARCHIVE_AT - 700);
      expect(await sumsByCurrency(h.ledger)).toEqual({ USD: 0 });
    },
    30_000,
  );

  test('a posting applied during an archive pass, by a step started after it began, never applies twice', async () => {
    const pausing = pausingReads(createEmbeddedDocumentStore(), BALANCES_COLLECTION, 'find');
    const h = setup(pausing.store);
    await h.ledger.post(PLATFORM, fund('fund-0', ALICE, 10_000));
    for (let i = 0; i < ARCHIVE_AT; i++) await h.ledger.applyStep(PLATFORM, fund(`busy-${i}`, ALICE, 1));
    const step = debit('late/debit', ALICE, 700);
    let startedAt = '';
    // The pass has taken its time and found ALICE due; before it reads her document, a step starts and applies.
    pausing.onNextRead(async () => {
      h.advance(1);
      startedAt = h.now();
      expect(await h.ledger.applyStep(PLATFORM, step, startedAt)).toBe('APPLIED');
    });
    await h.ledger.archivePostings();
    h.advance(ARCHIVE_MIN_AGE_MS);
    await h.ledger.archivePostings();
    expect(await h.archive.countDocuments({ markers: 'late/debit#0' })).toBe(1);
    // A replay of the step (a recovery taking it for interrupted) from when it started.
    expect(await h.ledger.applyStep(PLATFORM, step, startedAt)).toBe('APPLIED');
    expect((await h.ledger.getBalances([ALICE]))[0].available).toBe(10_000 + ARCHIVE_AT - 700);
    expect(await sumsByCurrency(h.ledger)).toEqual({ USD: 0 });
  }, 30_000);

  test('a busy balance document stays small: its markers move out as they age', async () => {
    const h = setup();
    await busy(h, 10 * ARCHIVE_AT, 'busy');
    const alice = await h.collection.findOne({ _id: ALICE });
    expect(alice!.applied!.length).toBeLessThan(ARCHIVE_AT);
    expect(alice!.unarchived).toBe(alice!.applied!.length);
    expect((await h.ledger.getBalances([ALICE]))[0].available).toBe(10 * ARCHIVE_AT);
  }, 30_000);

  test('a balance written before the archive, its window full, still refuses to guess about older steps', async () => {
    const h = setup();
    const start = Date.parse(T0);
    await h.collection.insertOne({
      _id: ALICE,
      account: ALICE,
      platformId: PLATFORM,
      currency: 'USD',
      available: 5_000,
      applied: Array.from({ length: 2_000 }, (_, i) => `legacy-${i}/debit#0`),
      appliedAt: Array.from({ length: 2_000 }, (_, i) => start + 1_000 + i),
    });
    await expect(h.ledger.applyStep(PLATFORM, debit('old/debit', ALICE, 5), T0)).rejects.toBeInstanceOf(
      StepNeedsReconciliation,
    );
    expect(
      await h.ledgerStore.apply({
        platformId: PLATFORM,
        posting: debit('legacy-5/debit', ALICE, 5).postings[0],
        marker: 'legacy-5/debit#0',
        guarded: true,
        events: [],
        since: start + 1_005,
      }),
    ).toBe('ALREADY_APPLIED');
    h.advance(10_000);
    expect(await h.ledger.applyStep(PLATFORM, debit('new/debit', ALICE, 5))).toBe('APPLIED');
    expect((await h.ledger.getBalances([ALICE]))[0].available).toBe(4_995);
  });
});

test('system accounts are spread over shards; their balances add up', async () => {
  const { ledger, collection } = setup();
  for (let i = 0; i < 40; i++) await ledger.post(PLATFORM, fund(`f-${i}`, ALICE, 10));
  const shards = (await collection.find({ system: true })).filter((d) =>
    balanceRecordsOf(d).some((b) => b.account === settlement)
  );
  expect(shards.length).toBeGreaterThan(1);
  expect((await ledger.allBalances()).find((b) => b.account === settlement)!.available).toBe(-400);
});

test("a step's system postings are one write, its guarded posting another", async () => {
  const { ledger, collection } = setup();
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 1_000));
  const fx = (currency: string) => systemAccount('fx', currency, PLATFORM);
  const settle = ledgerStep('tx-1/settle', [
    { account: BOB, currency: 'EUR', amount: 90 },
    { account: transit, currency: 'USD', amount: -100 },
    { account: systemAccount('fees', 'USD', PLATFORM), currency: 'USD', amount: 5 },
    { account: fx('USD'), currency: 'USD', amount: 95 },
    { account: fx('EUR'), currency: 'EUR', amount: -90 },
  ]);
  const writes = jest.spyOn(collection, 'updateOne');
  expect(await ledger.applyStep(PLATFORM, settle)).toBe('APPLIED');
  expect(writes).toHaveBeenCalledTimes(2);
  expect(await ledger.applyStep(PLATFORM, settle)).toBe('APPLIED'); // replay: nothing twice
  writes.mockRestore();
  const all = await ledger.allBalances();
  expect(all.find((b) => b.account === fx('EUR'))).toMatchObject({ currency: 'EUR', available: -90 });
  expect(all.find((b) => b.account === transit)!.available).toBe(-100);
  expect((await ledger.getBalances([BOB]))[0].available).toBe(90);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0, EUR: 0 });
});

test('a step recorded before system postings were grouped is replayed posting by posting, never doubled', async () => {
  const { ledger, ledgerStore } = setup();
  await ledger.post(PLATFORM, fund('fund-1', ALICE, 1_000));
  const { systemInOneWrite: _grouped, ...step } = debit('tx-1/debit', ALICE, 700);
  // An older version applied the debit and the transit credit (marker #1), then died.
  const since = Date.parse('2025-10-13T12:00:00Z');
  await ledgerStore.apply({
    platformId: PLATFORM,
    posting: step.postings[0],
    marker: 'tx-1/debit#0',
    guarded: true,
    events: [],
    since,
  });
  await ledgerStore.apply({
    platformId: PLATFORM,
    posting: step.postings[1],
    marker: 'tx-1/debit#1',
    guarded: false,
    events: [],
    since,
  });
  expect(await ledger.applyStep(PLATFORM, step, '2025-10-13T12:00:00.000Z')).toBe('APPLIED');
  expect((await ledger.allBalances()).find((b) => b.account === transit)!.available).toBe(700);
  expect(await sumsByCurrency(ledger)).toEqual({ USD: 0 });
});

describe('closed accounts (their customer deleted)', () => {
  const fund = (key: string, account: string, amount: number) =>
    ledgerStep(key, [
      { account, currency: 'USD', amount },
      { account: settlement, currency: 'USD', amount: -amount },
    ]);
  const balance = async (ledger: ReturnType<typeof setup>['ledger'], id: string) =>
    (await ledger.getBalances([id], PLATFORM))[0].available;

  test('closing and 20 concurrent credits: never both; a closed account takes no new money, refunds land', async () => {
    const { ledger } = setup();
    const results = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => ledger.post(PLATFORM, fund(`Operation:f${i}/fund`, ALICE, 100))),
      ledger.closeAccounts(PLATFORM, [{ accountId: ALICE, currency: 'USD' }, { accountId: BOB, currency: 'USD' }]),
    ]);
    const closing = results[20] as { closed: boolean };
    const applied = results.slice(0, 20).filter((r) => r === 'APPLIED').length;
    if (closing.closed) {
      expect([applied, await balance(ledger, ALICE)]).toEqual([0, 0]);
    } else {
      expect([applied, await balance(ledger, ALICE)]).toEqual([20, 2_000]);
    }
    // Closed or not, the all-or-none answer leaves BOB as ALICE: closed with her, open without.
    expect(await ledger.post(PLATFORM, fund('Operation:bob/fund', BOB, 50))).toBe(
      closing.closed ? 'VOIDED' : 'APPLIED',
    );
  });

  test('a closed account refuses new money before anything moves; reopened, it takes it; refunds land', async () => {
    const { ledger } = setup();
    expect(await ledger.closeAccounts(PLATFORM, [{ accountId: ALICE, currency: 'USD' }])).toEqual({
      closed: true,
      holding: [],
    });
    expect(await ledger.post(PLATFORM, fund('Operation:1/fund', ALICE, 300))).toBe('VOIDED');
    expect(await balance(ledger, ALICE)).toBe(0);
    const refund = ledgerStep('Transaction:t/refund', [{ account: transit, currency: 'USD', amount: -40 }, {
      account: ALICE,
      currency: 'USD',
      amount: 40,
    }], { returnsMoney: true });
    expect(await ledger.applyStep(PLATFORM, refund)).toBe('APPLIED');
    expect(await balance(ledger, ALICE)).toBe(40);
    // Holding funds, it cannot be closed (again): the answer names the balance.
    await ledger.reopenAccounts(PLATFORM, [ALICE]);
    expect(await ledger.closeAccounts(PLATFORM, [{ accountId: ALICE, currency: 'USD' }])).toMatchObject({
      closed: false,
      holding: [{ accountId: ALICE, available: 40 }],
    });
    expect(await ledger.post(PLATFORM, fund('Operation:2/fund', ALICE, 300))).toBe('APPLIED');
    expect(await balance(ledger, ALICE)).toBe(340);
  });
});
