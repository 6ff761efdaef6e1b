import { wire } from '../../../../test/fixtures/wire';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { RESERVATIONS_COLLECTION, VOLUMES_COLLECTION } from '../store/volume-document-store';
import { createCrashingStore } from '../../test-fixtures/crashing-store';
import {
  eventually,
  mxnAccountInfo,
  OTHER_PLATFORM,
  PLATFORM,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';

let h: PaymentsHarness;
let crashing: ReturnType<typeof createCrashingStore>;

beforeAll(async () => {
  crashing = createCrashingStore(createEmbeddedDocumentStore(), VOLUMES_COLLECTION);
  h = await startPaymentsHarness({ LEDGER_RECOVERY_AFTER_MS: '300' }, { store: crashing.store });
});
afterAll(async () => {
  await h.stop();
});
afterEach(() => crashing.recover());

/** A platform allowed 300.00 USD a day, with a funded USD account and an MXN payee. */
async function platformWithDailyVolume(platformId: string) {
  h.accounts.configure(platformId, { limits: [{ currency: 'USD', dailyVolume: 30_000 }] });
  const usd = h.accounts.addInternalAccount(platformId, { currency: 'USD' });
  const payee = h.accounts.addExternalAccount(platformId, { currency: 'MXN', accountInfo: mxnAccountInfo() });
  await h.sandbox.fundInternalAccount({ accountId: usd, ...wire({ amount: 100_000 }) }, { platformId });
  async function pay(amount: number) {
    const { quote } = await h.quotes.createQuote({
      ...wire({
        source: { sourceType: 'ACCOUNT', accountId: usd },
        destination: { destinationType: 'ACCOUNT', accountId: payee },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
      }),
    }, { platformId });
    await h.quotes.executeQuote({ quoteId: quote!.id }, { platformId });
    return quote!.transactionId as string;
  }
  const transaction = async (id: string) =>
    (await h.transactions.getTransaction({ transactionId: id }, { platformId })).transaction!;
  const when = (id: string, done: (t: Record<string, any>) => boolean) =>
    eventually(async () => {
      const t = await transaction(id);
      return done(t) ? t : undefined;
    });
  return { pay, transaction, when };
}

test('a payment failing after execution gives its daily volume back: the next one fits, the limit holds', async () => {
  const { pay, when } = await platformWithDailyVolume(PLATFORM);
  const failed = await pay(20_901);
  await when(failed, (t) => t.status === 'FAILED' && t.refund?.status === 'COMPLETED');
  await pay(20_000);
  await expect(pay(10_001)).rejects.toMatchObject({ code: 'DAILY_VOLUME_LIMIT_EXCEEDED' });
});

test('a crash while releasing leaves the failure unrecorded; recovery records it and releases once', async () => {
  const { pay, transaction, when } = await platformWithDailyVolume(OTHER_PLATFORM);
  const id = await pay(20_904);
  crashing.crashAfter(0);
  const payments = h.store.collection('payments');
  await eventually(
    async () => ((await payments.findOne({ _id: id, 'pendingStep.key': `${id}/failure` })) ? true : undefined),
  );
  expect(await transaction(id)).toMatchObject({ status: 'PROCESSING' });

  crashing.recover();
  await when(id, (t) => t.status === 'FAILED' && t.failureReason === 'PAYOUT_RETURNED');
  const counters = await h.store.collection(VOLUMES_COLLECTION).find({ _id: { $regex: `^${OTHER_PLATFORM}/` } });
  expect(counters.map((c) => [c.used, c.counting, c.releasing])).toEqual([[0, [], []]]);
  const reservations = await h.store.collection(RESERVATIONS_COLLECTION).find({ paymentId: id });
  expect(reservations.map((r) => r.state)).toEqual(['RELEASED']);
  await pay(30_000);
});
