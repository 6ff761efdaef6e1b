import { newEvent } from '../../../../lib/bus/outbox';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { findCurrency } from '../../shared/domain/currency-catalogue';
import { breakdown, NO_FEE } from '../domain/fees';
import type { Payment } from '../domain/payment';
import { receiptTransactionId, type UmaAddressHolder } from '../domain/same-server-receiver';
import { SETTLES } from '../domain/sandbox-outcomes';
import {
  BALANCES_COLLECTION,
  balanceRecordsOf,
  createLedgerDocumentStore,
} from '../../ledger/store/ledger-document-store';
import { createPaymentDocumentStore } from '../store/payment-document-store';
import { createLedger } from '../../ledger/app/ledger';
import { createReceiveSameServerPayment } from './same-server-payments';
import { createStepRunner } from './step-runner';

const SENDER_PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
const RECEIVER_PLATFORM = 'Platform:22222222-2222-4222-8222-222222222222';
const RECEIVER_ACCOUNT = 'InternalAccount:33333333-3333-4333-8333-333333333333';
const ADDRESS = '$bo@uma.sandbox.local';

function setup(holders: UmaAddressHolder[]) {
  const store = createEmbeddedDocumentStore();
  const clock = () => new Date();
  const { payments } = createPaymentDocumentStore(store);
  const ledger = createLedger({ store: createLedgerDocumentStore(store, clock).ledger, newEvent, clock });
  const runner = createStepRunner({ payments, ledger, releaseDailyVolume: async () => undefined, newEvent, clock });
  const receive = createReceiveSameServerPayment({
    directory: { holders: async (address) => (address === ADDRESS ? holders : []) },
    accounts: {
      customer: async () => ({
        id: 'Customer:a',
        platformCustomerId: 'a',
        umaAddress: '$ana@uma.sandbox.local',
        acceptsCurrentTerms: true,
      }),
    },
    payments,
    runner,
    clock,
  });
  const balances = async () => {
    const sums = new Map<string, number>();
    for (const b of (await store.collection(BALANCES_COLLECTION).find({})).flatMap(balanceRecordsOf)) {
      sums.set(b.account, (sums.get(b.account) ?? 0) + b.available);
    }
    return sums;
  };
  return { receive, payments, balances };
}

function outgoing(amount: number, umaAddress = ADDRESS): Payment {
  const usd = findCurrency('USD')!;
  const now = new Date().toISOString();
  return {
    id: 'Transaction:44444444-4444-4444-8444-444444444444',
    platformId: SENDER_PLATFORM,
    version: 3,
    type: 'OUTGOING',
    status: 'PROCESSING',
    customerId: 'Customer:aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
    platformCustomerId: 'a',
    source: {
      sourceType: 'ACCOUNT',
      accountId: 'InternalAccount:55555555-5555-4555-8555-555555555555',
      accountKind: 'INTERNAL',
      currency: 'USD',
    },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency: 'USD' },
    sent: { amount, currency: usd },
    received: { amount, currency: usd },
    exchangeRate: 1,
    fees: breakdown(amount, NO_FEE, NO_FEE),
    reference: 'REF',
    sandboxOutcome: SETTLES,
    stage: 'SENT',
    appliedSteps: ['debit'],
    createdAt: now,
    updatedAt: now,
  };
}

const holder = (over: Partial<UmaAddressHolder> = {}): UmaAddressHolder => ({
  platformId: RECEIVER_PLATFORM,
  customerId: 'Customer:b',
  platformCustomerId: 'b',
  isDeleted: false,
  accounts: [{ id: RECEIVER_ACCOUNT, currency: 'USD', status: 'ACTIVE' }],
  ...over,
});

test('delivered 20 times at once (redeliveries, many workers): one INCOMING transaction, moved once', async () => {
  const { receive, payments, balances } = setup([holder()]);
  const results = await Promise.all(Array.from({ length: 20 }, () => receive(outgoing(2_500))));
  const ids = new Set(results.map((r) => (r.kind === 'DELIVERED' ? r.incoming.id : r.kind)));
  expect([...ids]).toEqual([receiptTransactionId(outgoing(2_500))]);
  const incoming = (await payments.get(RECEIVER_PLATFORM, [...ids][0]))!;
  expect(incoming).toMatchObject({
    type: 'INCOMING',
    status: 'PENDING',
    customerId: 'Customer:b',
    appliedSteps: ['receive'],
    source: { umaAddress: '$ana@uma.sandbox.local' },
    sameServerOrigin: { platformId: SENDER_PLATFORM },
  });
  expect(incoming.pendingStep).toBeUndefined();
  const sums = await balances();
  // Arrived in the receiving platform's transit account, once; the worker's credit moves it to the customer.
  expect(sums.get(`ledger:transit:USD:${RECEIVER_PLATFORM}`)).toBe(2_500);
  expect(sums.get(`ledger:settlement:USD:${RECEIVER_PLATFORM}`)).toBe(-2_500);
  // A later delivery of the same payment still finds it, even if the receiver was deleted since.
  expect(await receive(outgoing(2_500))).toMatchObject({ kind: 'DELIVERED' });
  const after = setup([holder({ isDeleted: true })]);
  expect(await after.receive(outgoing(2_500))).toMatchObject({ kind: 'REFUSED', reason: 'ACCOUNT_CANNOT_RECEIVE' });
});

test("who receives: the sender's own platform first, one other, never ambiguous, deleted, currency-less", async () => {
  expect(await setup([]).receive(outgoing(100))).toEqual({ kind: 'OUTSIDE' });
  const own = holder({ platformId: SENDER_PLATFORM });
  const delivered = await setup([holder(), own]).receive(outgoing(100));
  expect(delivered.kind === 'DELIVERED' && delivered.incoming.platformId).toBe(SENDER_PLATFORM);
  const third = holder({ platformId: 'Platform:66666666-6666-4666-8666-666666666666' });
  expect(await setup([holder(), third]).receive(outgoing(100))).toMatchObject({
    kind: 'REFUSED',
    reason: 'ACCOUNT_INVALID',
  });
  expect(
    await setup([holder({ accounts: [{ id: RECEIVER_ACCOUNT, currency: 'EUR', status: 'ACTIVE' }] })]).receive(
      outgoing(100),
    ),
  )
    .toMatchObject({ kind: 'REFUSED', reason: 'ACCOUNT_CANNOT_RECEIVE' });
});
