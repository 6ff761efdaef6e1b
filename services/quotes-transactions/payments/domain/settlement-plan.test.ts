import { breakdown, NO_FEE } from './fees';
import { applyChange } from './payment-change';
import type { Payment } from './payment';
import { outcomeForAmount, outcomeForIncoming, SETTLES } from './sandbox-outcomes';
import { failure, isCancellable, nextSettlementChange } from './settlement-plan';
import { canTransition } from './transaction-states';

const NOW = new Date('2025-10-13T12:00:00.000Z');
const timing = { stepMs: 1000 };
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };

function payment(overrides: Partial<Payment> = {}): Payment {
  return {
    id: 'Transaction:00000000-0000-4000-8000-000000000001',
    platformId: 'Platform:p',
    version: 1,
    type: 'OUTGOING',
    status: 'PROCESSING',
    customerId: 'Customer:c',
    platformCustomerId: 'c',
    source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:a', accountKind: 'INTERNAL', currency: 'USD' },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: 'ExternalAccount:e',
      accountKind: 'EXTERNAL',
      currency: 'USD',
    },
    sent: { amount: 100, currency: USD },
    received: { amount: 100, currency: USD },
    exchangeRate: 1,
    fees: breakdown(100, NO_FEE, NO_FEE),
    reference: 'PAY-1',
    sandboxOutcome: SETTLES,
    stage: 'SUBMITTED',
    appliedSteps: ['debit'],
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    ...overrides,
  };
}

/** Runs the plan to the end, as the worker would; answers the statuses seen and the events. */
function settle(p: Payment) {
  const seen: string[] = [];
  const events: string[] = [];
  for (let i = 0; i < 10; i++) {
    const plan = nextSettlementChange(p, NOW, timing);
    if (!plan) break;
    p = applyChange(p, plan.change, NOW);
    if (plan.movement) p = { ...p, appliedSteps: [...p.appliedSteps, plan.movement] };
    seen.push(`${p.status}${p.stage ? `/${p.stage}` : ''}${p.refund ? `/refund:${p.refund.status}` : ''}`);
    events.push(...plan.change.events);
  }
  return { seen, events, last: p };
}

test.each(
  [
    ['OUTGOING', 'PENDING', 'PROCESSING', true],
    ['OUTGOING', 'PENDING', 'EXPIRED', true],
    ['OUTGOING', 'PROCESSING', 'COMPLETED', true],
    ['OUTGOING', 'PROCESSING', 'FAILED', true],
    ['OUTGOING', 'COMPLETED', 'FAILED', false],
    ['OUTGOING', 'PENDING', 'COMPLETED', false],
    ['OUTGOING', 'EXPIRED', 'PROCESSING', false],
    ['INCOMING', 'PENDING', 'COMPLETED', true],
    ['INCOMING', 'PENDING', 'PROCESSING', false],
    ['INCOMING', 'FAILED', 'COMPLETED', false],
  ] as const,
)('%s %s → %s allowed: %s', (type, from, to, allowed) => {
  expect(canTransition(type, from, to)).toBe(allowed);
});

test.each([
  ['settles', SETTLES, ['PROCESSING/SENT', 'COMPLETED'], ['OUTGOING_PAYMENT.COMPLETED']],
  [
    'payout returned',
    outcomeForAmount(1_904),
    ['PROCESSING/SENT', 'FAILED/refund:PENDING', 'FAILED/refund:COMPLETED'],
    ['OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_COMPLETED'],
  ],
  ['review passes', outcomeForAmount(1_906), ['PROCESSING/IN_REVIEW', 'PROCESSING/SENT', 'COMPLETED'], [
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.COMPLETED',
  ]],
  ['review rejects', outcomeForAmount(1_907), [
    'PROCESSING/IN_REVIEW',
    'FAILED/refund:PENDING',
    'FAILED/refund:COMPLETED',
  ], [
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.FAILED',
    'OUTGOING_PAYMENT.REFUND_PENDING',
    'OUTGOING_PAYMENT.REFUND_COMPLETED',
  ]],
])('outgoing, %s', (_name, outcome, seen, events) => {
  const run = settle(payment({ sandboxOutcome: outcome }));
  expect(run.seen).toEqual(seen);
  expect(run.events).toEqual(events);
});

test('incoming: a refund that fails is REFUND_FAILED without moving the money back, and waits for its retry', () => {
  const run = settle(
    payment({
      type: 'INCOMING',
      status: 'PENDING',
      appliedSteps: ['receive'],
      sandboxOutcome: outcomeForIncoming('$refundfail@x.com', 100),
    }),
  );
  expect(run.events).toEqual([
    'INCOMING_PAYMENT.FAILED',
    'INCOMING_PAYMENT.REFUND_PENDING',
    'INCOMING_PAYMENT.REFUND_FAILED',
  ]);
  expect(run.last).toMatchObject({
    status: 'FAILED',
    refund: { status: 'FAILED' },
    failedRefundAttempts: 1,
    nextActionAt: '2025-10-13T12:00:02.000Z',
  });
  expect(run.last.appliedSteps).toEqual(['receive']);
});

test.each([
  [
    'a failure ($refund…) ends REFUNDED',
    outcomeForIncoming('$refund@x.com', 100),
    'REFUNDED',
    'ACCOUNT_CANNOT_RECEIVE',
  ],
  [
    'a compliance rejection ($reject…) ends REJECTED',
    outcomeForIncoming('$reject@x.com', 100),
    'REJECTED',
    'COMPLIANCE_REJECTED',
  ],
])('incoming, returned to the sender: %s once the refund completes', (_name, outcome, status, failureReason) => {
  const run = settle(
    payment({ type: 'INCOMING', status: 'PENDING', appliedSteps: ['receive'], sandboxOutcome: outcome }),
  );
  expect(run.seen.slice(-2)).toEqual(['FAILED/refund:PENDING', `${status}/refund:COMPLETED`]);
  expect(run.events.slice(-1)).toEqual(['INCOMING_PAYMENT.REFUND_COMPLETED']);
  expect(run.last).toMatchObject({ failureReason, appliedSteps: ['receive', 'refund'] });
});

test("the platform's rejection of an incoming payment ends REJECTED once refunded", () => {
  const p = payment({ type: 'INCOMING', status: 'PENDING', stage: 'AWAITING_APPROVAL', appliedSteps: ['receive'] });
  const rejected = applyChange(
    p,
    failure({
      payment: p,
      now: NOW,
      timing,
      rejectedByPlatform: true,
    }),
    NOW,
  );
  expect(rejected).toMatchObject({
    status: 'FAILED',
    rejectedByPlatform: true,
    refund: { status: 'PENDING', reason: 'TRANSACTION_FAILED' },
  });
  expect(settle(rejected).last.status).toBe('REJECTED');
});

test('a failure with nothing in transit (a transfer-in) has no refund', () => {
  const run = settle(
    payment({ type: 'INCOMING', status: 'PENDING', appliedSteps: [], sandboxOutcome: outcomeForAmount(1_901) }),
  );
  expect(run.last).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_INVALID' });
  expect(run.last.refund).toBeUndefined();
});

test('an unexecuted quote expires at expiresAt, not before; an approval waits for the platform', () => {
  const quote = { id: 'Quote:q', lockedSide: 'SENDING' as const, lockedAmount: 100, expiresAt: NOW.toISOString() };
  expect(
    nextSettlementChange(
      payment({ status: 'PENDING', quote: { ...quote, expiresAt: '2025-10-13T12:00:01.000Z' } }),
      NOW,
      timing,
    ),
  ).toBeUndefined();
  expect(nextSettlementChange(payment({ status: 'PENDING', quote }), NOW, timing)!.change.events).toEqual([
    'QUOTE.EXPIRED',
    'OUTGOING_PAYMENT.EXPIRED',
  ]);
  expect(
    nextSettlementChange(payment({ type: 'INCOMING', status: 'PENDING', stage: 'AWAITING_APPROVAL' }), NOW, timing),
  ).toBeUndefined();
});

test('nothing is planned while a ledger step is pending; only SUBMITTED payments are cancellable', () => {
  const pendingStep = { key: 'k', postings: [], startedAt: NOW.toISOString(), then: { set: {}, events: [] } };
  expect(nextSettlementChange(payment({ pendingStep }), NOW, timing)).toBeUndefined();
  expect(isCancellable(payment())).toBe(true);
  expect(isCancellable(payment({ stage: 'SENT' }))).toBe(false);
  expect(isCancellable(payment({ status: 'COMPLETED' }))).toBe(false);
});

test.each([
  [10_000, 'SETTLES'],
  [10_901, 'FAILS'],
  [1_905, 'FAILS'],
  [906, 'REVIEWED'],
  [9_907, 'REVIEWED'],
  [908, 'SETTLES'],
])('amount %d → %s', (amount, kind) => {
  expect(outcomeForAmount(amount).kind).toBe(kind);
});

test("a UMA payment settles with its inter-VASP leg's hash; account, failed and unsettled ones have none", () => {
  const uma = settle(
    payment({
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$maria@uma.example.com', currency: 'USD' },
    }),
  ).last;
  expect(uma.status).toBe('COMPLETED');
  expect(uma.umaSettlementHash).toMatch(/^[0-9a-f]{64}$/);
  const incoming = settle(
    payment({
      type: 'INCOMING',
      status: 'PENDING',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$ana@other.example.com', currency: 'USD' },
    }),
  ).last;
  expect(incoming.umaSettlementHash).toMatch(/^[0-9a-f]{64}$/);
  expect(settle(payment()).last.umaSettlementHash).toBeUndefined();
  const returned = settle(
    payment({
      sandboxOutcome: outcomeForAmount(1_904),
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$maria@uma.example.com', currency: 'USD' },
    }),
  ).last;
  expect([returned.status, returned.umaSettlementHash]).toEqual(['FAILED', undefined]);
});

test('a quote still PENDING_AUTHORIZATION at its expiry fails with SCA_NOT_COMPLETED, not before', () => {
  const quote = {
    id: 'Quote:q',
    lockedSide: 'SENDING' as const,
    lockedAmount: 100,
    expiresAt: new Date(NOW.getTime() + 1).toISOString(),
  };
  const held = payment({ status: 'PENDING_AUTHORIZATION', stage: undefined, appliedSteps: [], quote });
  expect(nextSettlementChange(held, NOW, timing)).toBeUndefined();
  const later = new Date(NOW.getTime() + 1);
  expect(nextSettlementChange(held, later, timing)?.change).toEqual({
    set: { status: 'FAILED', failureReason: 'SCA_NOT_COMPLETED' },
    unset: ['stage', 'nextActionAt'],
    events: ['OUTGOING_PAYMENT.FAILED'],
  });
  expect(canTransition('OUTGOING', 'PENDING_AUTHORIZATION', 'FAILED')).toBe(true);
  expect(canTransition('OUTGOING', 'PENDING_AUTHORIZATION', 'EXPIRED')).toBe(false);
});
