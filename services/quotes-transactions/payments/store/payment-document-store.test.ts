import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { Payment } from '../domain/payment';
import { applyChange } from '../domain/payment-change';
import { createPaymentDocumentStore, PAYMENTS_COLLECTION } from './payment-document-store';

const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
const usd = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 };
const mxn = { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 };

function quote(): Payment {
  return {
    id: 'Transaction:0193a5b2-0000-7000-8000-000000000001',
    platformId: PLATFORM,
    version: 1,
    type: 'OUTGOING',
    status: 'PENDING',
    customerId: 'Customer:1',
    platformCustomerId: 'pc-1',
    source: {
      sourceType: 'ACCOUNT',
      accountId: 'InternalAccount:1',
      accountKind: 'INTERNAL',
      currency: 'USD',
      internalType: 'INTERNAL_FIAT',
    },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: 'ExternalAccount:1',
      accountKind: 'EXTERNAL',
      currency: 'MXN',
    },
    sent: { amount: 1000, currency: usd },
    received: { amount: 17232, currency: mxn },
    exchangeRate: 17.25,
    fees: { service: { fixed: 0, variable: 1, total: 1 }, platform: { fixed: 0, variable: 0, total: 0 }, total: 1 },
    quote: { id: 'Quote:1', lockedSide: 'SENDING', lockedAmount: 1000, expiresAt: '2030-01-01T00:00:00.000Z' },
    reference: 'REF-1',
    sandboxOutcome: { kind: 'SETTLES' },
    nextActionAt: '2030-01-01T00:00:00.000Z',
    appliedSteps: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  } as unknown as Payment;
}

describe('payment document store: conditional updates', () => {
  it('stores exactly the next payment, members set and unset, and refuses a stale version', async () => {
    const store = createEmbeddedDocumentStore();
    const { payments } = createPaymentDocumentStore(store);
    const first = quote();
    await payments.insert(first, []);

    const executed = applyChange(first, {
      set: {
        status: 'PROCESSING',
        stage: 'SUBMITTED',
        quote: { ...first.quote!, executedAt: '2026-01-01T00:00:01.000Z' },
      },
      unset: ['nextActionAt'],
    }, new Date('2026-01-01T00:00:01.000Z'));
    expect(await payments.update(first, executed, [])).toBe(true);
    expect(await payments.get(PLATFORM, first.id)).toEqual(executed);
    expect(await payments.getByQuote(PLATFORM, 'Quote:1')).toEqual(executed);

    // The version moved on: a change computed from the first read loses.
    const stale = applyChange(first, { set: { status: 'FAILED' } }, new Date());
    expect(await payments.update(first, stale, [])).toBe(false);
    expect(await payments.get(PLATFORM, first.id)).toEqual(executed);

    const raw = await store.collection(PAYMENTS_COLLECTION).findOne({ _id: first.id });
    expect(raw).not.toHaveProperty('nextActionAt');
    expect(raw).toMatchObject({ version: 2, status: 'PROCESSING', stage: 'SUBMITTED' });
  });
});
