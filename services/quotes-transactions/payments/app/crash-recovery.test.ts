import { wire } from '../../../../test/fixtures/wire';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { ARCHIVE_AT, ARCHIVE_COLLECTION, BALANCES_COLLECTION } from '../../ledger/store/ledger-document-store';
import { receiptTransactionId } from '../domain/same-server-receiver';
import { createCrashingStore } from '../../test-fixtures/crashing-store';
import {
  asPlatform,
  eventually,
  mxnAccountInfo,
  OTHER_PLATFORM,
  PLATFORM,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';

let h: PaymentsHarness;
let crashing: ReturnType<typeof createCrashingStore>;
let usd: string;
let payee: string;

beforeAll(async () => {
  crashing = createCrashingStore(createEmbeddedDocumentStore(), BALANCES_COLLECTION);
  h = await startPaymentsHarness({ LEDGER_RECOVERY_AFTER_MS: '300' }, { store: crashing.store });
  usd = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD' });
  payee = h.accounts.addExternalAccount(PLATFORM, { currency: 'MXN', accountInfo: mxnAccountInfo() });
});
afterAll(async () => {
  await h.stop();
});
afterEach(() => crashing.recover());

const balance = async (id: string) =>
  (await h.ledger.getBalances({ accountIds: [id] }, asPlatform)).balances[0].available;
const allZero = async () => Object.values(await h.balanceSums()).every((sum) => sum === 0);

async function quote(amount: number) {
  const { quote: q } = await h.quotes.createQuote({
    ...wire({
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: payee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    }),
  }, asPlatform);
  return q!;
}

test('a crash between the debit and its credit is rolled forward by the worker: the whole step, once', async () => {
  await h.sandbox.fundInternalAccount({ accountId: usd, ...wire({ amount: 50_000 }) }, asPlatform);
  const q = await quote(10_000);
  crashing.crashAfter(1); // the debit lands; the credit to funds-in-transit does not
  await expect(h.quotes.executeQuote({ quoteId: q.id }, asPlatform)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  crashing.recover();
  expect(await balance(usd)).toBe(40_000);
  expect(await allZero()).toBe(false);
  const t = await eventually(async () => {
    const { transaction } = await h.transactions.getTransaction({ transactionId: q.transactionId }, asPlatform);
    return transaction!.status === 'COMPLETED' ? transaction : undefined;
  });
  expect(t!.sentAmount!.amount).toBe(10_000);
  expect(await balance(usd)).toBe(40_000);
  expect(await allZero()).toBe(true);
});

test('a crash before the debit leaves nothing; funds gone by recovery: step refused, transaction failed', async () => {
  const q = await quote(40_000);
  crashing.crashAfter(0);
  await expect(h.quotes.executeQuote({ quoteId: q.id }, asPlatform)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  crashing.recover();
  expect(await balance(usd)).toBe(40_000);
  // Meanwhile the money is spent elsewhere.
  const other = await quote(40_000);
  await h.quotes.executeQuote({ quoteId: other.id }, asPlatform);
  const failed = await eventually(async () => {
    const { transaction } = await h.transactions.getTransaction({ transactionId: q.transactionId }, asPlatform);
    return transaction!.status === 'FAILED' ? transaction : undefined;
  });
  expect(failed).toMatchObject({ failureReason: 'QUOTE_EXECUTION_FAILED' });
  expect(failed!.refund).toBeUndefined();
  expect(await balance(usd)).toBe(0);
  await eventually(async () => ((await allZero()) ? true : undefined));
});

test('an incoming UMA payment is CREATED until funded; a crash there rolls forward to PENDING, settles', async () => {
  const customer = h.accounts.addCustomer(PLATFORM, { umaAddress: '$rosa@sandbox.example.com' });
  const account = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: customer });
  crashing.crashAfter(0); // the payment is recorded; its arrival in funds-in-transit is not
  await expect(h.sandbox.simulateUmaReceive({
    ...wire({
      senderUmaAddress: '$success.usd@sandbox.grid.uma.money',
      customerId: customer,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 2_500,
    }),
  }, asPlatform)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  const { transactions } = await h.transactions.listTransactions({ customerId: customer, limit: 0 }, asPlatform);
  expect(transactions).toEqual([
    expect.objectContaining({
      type: 'INCOMING',
      status: 'CREATED',
      receivedAmount: expect.objectContaining({ amount: 2_500 }),
    }),
  ]);
  expect(transactions[0].reconciliationInstructions).toBeUndefined();

  crashing.recover();
  const id = transactions[0].id as string;
  const status = async () =>
    (await h.transactions.getTransaction({ transactionId: id }, asPlatform)).transaction!.status;
  await eventually(async () => ((await status()) === 'COMPLETED' ? true : undefined));
  expect(await balance(account)).toBe(2_500);
  await h.flushEvents();
  expect(h.events.filter((e) => e.aggregateId === id).map((e) => e.type)).toEqual([
    'INCOMING_PAYMENT.PENDING',
    'INCOMING_PAYMENT.COMPLETED',
  ]);
});

test("a crash while another platform's customer gets an UMA payment rolls forward: credited once", async () => {
  const sender = h.accounts.addCustomer(PLATFORM, { umaAddress: '$ana.sender@uma.sandbox.local' });
  const from = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: sender });
  const receiver = h.accounts.addCustomer(OTHER_PLATFORM, { umaAddress: '$bo.receiver@uma.sandbox.local' });
  const to = h.accounts.addInternalAccount(OTHER_PLATFORM, { currency: 'USD', customerId: receiver });
  await h.sandbox.fundInternalAccount({ accountId: from, ...wire({ amount: 9_000 }) }, asPlatform);
  const lookup = await h.lookup.lookupUma({
    receiverUmaAddress: '$bo.receiver@uma.sandbox.local',
    senderUmaAddress: '',
    customerId: sender,
  }, asPlatform);
  const { quote: q } = await h.quotes.createQuote({
    ...wire({
      lookupId: lookup.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: from },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$bo.receiver@uma.sandbox.local', currency: 'USD' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 6_000,
    }),
  }, asPlatform);
  const incomingId = receiptTransactionId({ id: q!.transactionId });
  crashing.crashAfter(1, incomingId); // the receiver's money leaves settlement; it never reaches transit
  await h.quotes.executeQuote({ quoteId: q!.id }, asPlatform);
  await eventually(
    async () => ((await h.store.collection('payments').countDocuments({
        _id: incomingId,
        pendingStep: { $exists: true },
      })) === 1
      ? true
      : undefined),
  );
  crashing.recover();
  const statusOf = async (platformId: string, transactionId: string) =>
    (await h.transactions.getTransaction({ transactionId }, { platformId })).transaction!.status;
  await eventually(
    async () => ((await statusOf(OTHER_PLATFORM, incomingId)) === 'COMPLETED'
        && (await statusOf(PLATFORM, q!.transactionId)) === 'COMPLETED'
      ? true
      : undefined),
  );
  expect((await h.ledger.getBalances({ accountIds: [to] }, { platformId: OTHER_PLATFORM })).balances[0].available).toBe(
    6_000,
  );
  expect(await balance(from)).toBe(3_000);
  await eventually(async () => ((await allZero()) ? true : undefined));
  await h.flushEvents();
  expect(h.events.filter((e) => e.aggregateId === incomingId).map((e) => [e.platformId, e.type])).toEqual([
    [OTHER_PLATFORM, 'INCOMING_PAYMENT.PENDING'],
    [OTHER_PLATFORM, 'INCOMING_PAYMENT.COMPLETED'],
  ]);
});

describe('a busy account', () => {
  const store = createCrashingStore(createEmbeddedDocumentStore(), BALANCES_COLLECTION);

  test('a crash mid-step is rolled forward after its debit was archived: once', async () => {
    // This process never takes over the crashed step (it waits an hour), however long the archive takes
    // to move the debit's marker on a loaded machine; taking it over first would leave nothing to archive.
    const busy = await startPaymentsHarness({ LEDGER_RECOVERY_AFTER_MS: '3600000' }, { store: store.store });
    const source = busy.accounts.addInternalAccount(PLATFORM, { currency: 'USD' });
    const to = busy.accounts.addExternalAccount(PLATFORM, { currency: 'MXN', accountInfo: mxnAccountInfo() });
    const quote = async (amount: number) =>
      (await busy.quotes.createQuote({
        ...wire({
          source: { sourceType: 'ACCOUNT', accountId: source },
          destination: { destinationType: 'ACCOUNT', accountId: to },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: amount,
        }),
      }, asPlatform)).quote!;
    await busy.sandbox.fundInternalAccount({ accountId: source, ...wire({ amount: 1_000_000 }) }, asPlatform);
    const stuck = await quote(10_000);
    // The debit lands; the credit does not. Only this payment's writes count: the settlement worker may still be
    // writing for the funding.
    store.crashAfter(1, stuck.transactionId);
    await expect(busy.quotes.executeQuote({ quoteId: stuck.id }, asPlatform)).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
    });
    store.recover();
    expect((await busy.ledger.getBalances({ accountIds: [source] }, asPlatform)).balances[0].available).toBe(
      1_000_000 - 10_000,
    ); // the debit landed
    const payments = async (count: number) => {
      for (let i = 0; i < count; i++) await busy.quotes.executeQuote({ quoteId: (await quote(100)).id }, asPlatform);
    };
    await Promise.all(Array.from({ length: 16 }, () => payments(2 * ARCHIVE_AT / 16)));
    const archive = store.store.collection(ARCHIVE_COLLECTION);
    // The archive moves markers in the settlement worker's passes, at least a second after they were
    // written and only once 256 wait: on a loaded machine that takes more than a few seconds.
    const marker = `${stuck.transactionId}/debit#0`;
    await eventually(async () => ((await archive.countDocuments({ markers: marker })) >= 1 ? true : undefined), 120_000)
      .catch(async (err) => {
        // What the source's balance documents and the archive hold, to tell a slow archive from a marker that never
        // landed.
        const balances = (await store.store.collection(BALANCES_COLLECTION).find({})).filter((b) =>
          JSON.stringify(b).includes(source)
        );
        const state = balances.map((b) => ({
          id: b._id,
          unarchived: b.unarchived,
          applied: (b.applied as string[] | undefined)?.length,
          holdsMarker: (b.applied as string[] | undefined)?.includes(marker),
        }));
        throw new Error(
          `${(err as Error).message}: source balances ${JSON.stringify(state)}, archive documents ${await archive
            .countDocuments({})}`,
        );
      });
    await busy.stop();

    // A process that takes over steps sooner finds the debit in the archive and finishes the step.
    const next = await startPaymentsHarness({ LEDGER_RECOVERY_AFTER_MS: '300' }, { store: store.store });
    try {
      const status = async () =>
        (await next.transactions.getTransaction({ transactionId: stuck.transactionId }, asPlatform)).transaction!
          .status;
      await eventually(async () => ((await status()) === 'COMPLETED' ? true : undefined), 20_000);
      const left = (await next.ledger.getBalances({ accountIds: [source] }, asPlatform)).balances[0].available;
      expect(left).toBe(1_000_000 - 10_000 - 2 * ARCHIVE_AT * 100);
      await eventually(
        async () => (Object.values(await next.balanceSums()).every((sum) => sum === 0) ? true : undefined),
        20_000,
      );
    } finally {
      await next.stop();
    }
  }, 240_000);
});
