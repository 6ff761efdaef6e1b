import { breakdown, NO_FEE } from './fees';
import type { Payment } from './payment';
import { movement } from './payment-movements';
import { SETTLES } from './sandbox-outcomes';

const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const MXN = { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 };
const P = 'Platform:p';

const crossCurrency: Payment = {
  id: 'Transaction:t',
  platformId: P,
  version: 1,
  type: 'OUTGOING',
  status: 'PROCESSING',
  customerId: 'Customer:c',
  platformCustomerId: 'c',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:a', accountKind: 'INTERNAL', currency: 'USD' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:e', accountKind: 'EXTERNAL', currency: 'MXN' },
  sent: { amount: 10_000, currency: USD },
  received: { amount: 170_947, currency: MXN },
  exchangeRate: 17.25,
  fees: breakdown(10_000, { fixedFee: 0, variableFeeBps: 10 }, { fixedFee: 50, variableFeeBps: 30 }),
  platformFeeAccount: 'InternalAccount:platform',
  reference: 'PAY-1',
  sandboxOutcome: SETTLES,
  appliedSteps: ['debit'],
  createdAt: '2025-10-13T12:00:00.000Z',
  updatedAt: '2025-10-13T12:00:00.000Z',
};

test('settling a cross-currency payment: payout first, fees, the rest via FX, balanced per currency', () => {
  expect(movement(crossCurrency, 'settle')).toEqual({
    key: 'Transaction:t/settle',
    postings: [
      { account: `ledger:settlement:MXN:${P}`, currency: 'MXN', amount: 170_947 },
      { account: `ledger:transit:USD:${P}`, currency: 'USD', amount: -10_000 },
      { account: `ledger:fees:USD:${P}`, currency: 'USD', amount: 10 },
      { account: 'InternalAccount:platform', currency: 'USD', amount: 80 },
      { account: `ledger:fx:USD:${P}`, currency: 'USD', amount: 9_910 },
      { account: `ledger:fx:MXN:${P}`, currency: 'MXN', amount: -170_947 },
    ],
    systemInOneWrite: true,
  });
});

test("new money into an internal account is its step's first posting, refused once closed; refunds land", () => {
  const toInternal = {
    ...crossCurrency,
    destination: {
      destinationType: 'ACCOUNT' as const,
      accountId: 'InternalAccount:b',
      accountKind: 'INTERNAL' as const,
      currency: 'MXN',
    },
  };
  const settle = movement(toInternal, 'settle');
  expect(settle.postings[0]).toEqual({ account: 'InternalAccount:b', currency: 'MXN', amount: 170_947 });
  expect(settle.creditsOpenAccount).toBe('InternalAccount:b');
  expect(movement(crossCurrency, 'settle').creditsOpenAccount).toBeUndefined();
  expect(movement(crossCurrency, 'refund').creditsOpenAccount).toBeUndefined();
});

test('the debit takes from the source first (the guarded posting), and a refund returns it', () => {
  expect(movement(crossCurrency, 'debit').postings).toEqual([
    { account: 'InternalAccount:a', currency: 'USD', amount: -10_000 },
    { account: `ledger:transit:USD:${P}`, currency: 'USD', amount: 10_000 },
  ]);
  expect(movement(crossCurrency, 'refund').postings).toEqual([
    { account: `ledger:transit:USD:${P}`, currency: 'USD', amount: -10_000 },
    { account: 'InternalAccount:a', currency: 'USD', amount: 10_000 },
  ]);
});

test('a same-currency transfer without fees pays out directly, with no FX postings', () => {
  const same = {
    ...crossCurrency,
    received: { amount: 10_000, currency: USD },
    destination: { ...crossCurrency.destination, currency: 'USD' },
    exchangeRate: 1,
    fees: breakdown(10_000, NO_FEE, NO_FEE),
  };
  expect(movement(same, 'settle').postings).toEqual([
    { account: `ledger:settlement:USD:${P}`, currency: 'USD', amount: 10_000 },
    { account: `ledger:transit:USD:${P}`, currency: 'USD', amount: -10_000 },
  ]);
});
