import { breakdown, NO_FEE } from './fees';
import {
  answeredChange,
  approvalTimeout,
  awaitsWebhookAnswer,
  decideOnAnswer,
  APPROVAL_REQUESTED_EVENT,
} from './incoming-payment-approval';
import type { Payment } from './payment';
import { SETTLES } from './sandbox-outcomes';
import { nextSettlementChange } from './settlement-plan';

const NOW = new Date('2026-01-01T12:00:00.000Z');
const timing = { stepMs: 1000 };
const windows = { webhookAnswerMs: 30_000, deferredMs: 5_000 };
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };

function waiting(overrides: Partial<Payment> = {}): Payment {
  return {
    id: 'Transaction:00000000-0000-4000-8000-000000000001',
    platformId: 'Platform:p',
    version: 1,
    type: 'INCOMING',
    status: 'PENDING',
    customerId: 'Customer:c',
    platformCustomerId: 'c',
    source: { sourceType: 'UMA_ADDRESS', umaAddress: '$s@x.com', currency: 'USD' },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: 'InternalAccount:a',
      accountKind: 'INTERNAL',
      currency: 'USD',
    },
    sent: { amount: 100, currency: USD },
    received: { amount: 100, currency: USD },
    exchangeRate: 1,
    fees: breakdown(100, NO_FEE, NO_FEE),
    reference: 'PAY-1',
    sandboxOutcome: SETTLES,
    stage: 'AWAITING_APPROVAL',
    approval: { phase: 'WEBHOOK' },
    nextActionAt: new Date(NOW.getTime() + 30_000).toISOString(),
    counterpartyInformation: { FULL_NAME: 'Sandbox Sender' },
    appliedSteps: ['receive'],
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    ...overrides,
  };
}

test.each([
  [{ statusCode: 200 }, 'APPROVE'],
  [{ statusCode: 202 }, 'DEFER'],
  [{ statusCode: 403, body: '{"reason":"X"}' }, 'REJECT'],
  [{ statusCode: 422, body: '{"requiredFields":["NATIONALITY"]}' }, 'REQUEST_FIELDS'],
  [{ statusCode: 422, body: 'not json' }, 'WEBHOOK_ERROR'],
  [{ statusCode: 500 }, 'WEBHOOK_ERROR'],
  [{ statusCode: 204 }, 'WEBHOOK_ERROR'],
  [{ statusCode: 409 }, 'WEBHOOK_ERROR'],
  [{ error: 'connection failed: ECONNREFUSED' }, 'WEBHOOK_ERROR'],
  [{ noEndpoint: true }, 'APPROVE'],
])('%j decides %s', (answer, kind) => {
  expect(decideOnAnswer(answer).kind).toBe(kind);
});

test('an approval sends the payment on its rail', () => {
  expect(answeredChange({ payment: waiting(), decision: { kind: 'APPROVE' }, now: NOW, timing, windows })).toEqual({
    set: { stage: 'SUBMITTED', nextActionAt: '2026-01-01T12:00:01.000Z' },
    unset: ['approval'],
    events: [],
  });
});

test("a 200 body's receiverCustomerInfo is read; a malformed or absent one is none", () => {
  expect(decideOnAnswer({ statusCode: 200, body: '{"receiverCustomerInfo":{"NATIONALITY":"FR"}}' })).toEqual({
    kind: 'APPROVE',
    receiverCustomerInfo: { NATIONALITY: 'FR' },
  });
  for (
    const body of [
      'not json',
      '{"receiverCustomerInfo":["NATIONALITY"]}',
      '{"receiverCustomerInfo":{}}',
      '{}',
      undefined,
    ]
  ) {
    expect(decideOnAnswer({ statusCode: 200, body })).toEqual({ kind: 'APPROVE' });
  }
});

test('requested receiver fields: an approval with every mandatory one records them; one missing fails it', () => {
  const asking = waiting({
    requestedReceiverFields: [{ name: 'NATIONALITY', mandatory: true }, { name: 'POSTAL_ADDRESS', mandatory: false }],
  });
  const info = { NATIONALITY: 'FR' };
  expect(answeredChange({
    payment: asking,
    decision: { kind: 'APPROVE', receiverCustomerInfo: info },
    now: NOW,
    timing,
    windows,
  })).toEqual({
    set: { stage: 'SUBMITTED', nextActionAt: '2026-01-01T12:00:01.000Z', receiverCustomerInfo: info },
    unset: ['approval'],
    events: [],
  });
  for (const missing of [undefined, { POSTAL_ADDRESS: '1 rue X' }, { NATIONALITY: '' }]) {
    const change = answeredChange({
      payment: asking,
      decision: { kind: 'APPROVE', receiverCustomerInfo: missing },
      now: NOW,
      timing,
      windows,
    });
    expect(change.set).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
      refund: { status: 'PENDING' },
    });
    expect(change.unset).toContain('approval');
  }
  // Nothing mandatory asked: an approval without the optional field is fine.
  const optional = waiting({ requestedReceiverFields: [{ name: 'POSTAL_ADDRESS', mandatory: false }] });
  expect(
    answeredChange({
      payment: optional,
      decision: { kind: 'APPROVE' },
      now: NOW,
      timing,
      windows,
    }).set,
  ).toEqual({ stage: 'SUBMITTED', nextActionAt: '2026-01-01T12:00:01.000Z' });
});

test('a rejection fails the payment, refunds the sender and ends REJECTED', () => {
  const change = answeredChange({ payment: waiting(), decision: { kind: 'REJECT' }, now: NOW, timing, windows });
  expect(change.set).toMatchObject({ status: 'FAILED', rejectedByPlatform: true, refund: { status: 'PENDING' } });
  expect(change.unset).toContain('approval');
  expect(change.events).toEqual(['INCOMING_PAYMENT.FAILED', 'INCOMING_PAYMENT.REFUND_PENDING']);
});

test('a 202 opens the deferred window; when it passes unanswered: PAYMENT_APPROVAL_TIMED_OUT', () => {
  const change = answeredChange({ payment: waiting(), decision: { kind: 'DEFER' }, now: NOW, timing, windows });
  expect(change.set).toEqual({ approval: { phase: 'DEFERRED' }, nextActionAt: '2026-01-01T12:00:05.000Z' });
  const deferred = waiting({ ...change.set });
  expect(approvalTimeout(deferred, new Date(NOW.getTime() + 4_999), timing)).toBeUndefined();
  expect(nextSettlementChange(deferred, new Date(NOW.getTime() + 5_000), timing)?.change.set).toMatchObject({
    status: 'FAILED',
    failureReason: 'PAYMENT_APPROVAL_TIMED_OUT',
  });
});

test('no answer at all before the deadline: PAYMENT_APPROVAL_WEBHOOK_ERROR', () => {
  expect(nextSettlementChange(waiting(), new Date(NOW.getTime() + 30_000), timing)?.change.set).toMatchObject({
    status: 'FAILED',
    failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
  });
});

test('a 422 has the sender supply the fields and asks again; asked for them again, the payment fails', () => {
  const change = answeredChange({
    payment: waiting(),
    decision: { kind: 'REQUEST_FIELDS', fields: ['NATIONALITY', 'TAX_ID'] },
    now: NOW,
    timing,
    windows,
  });
  expect(change.events).toEqual([APPROVAL_REQUESTED_EVENT]);
  expect(change.set.counterpartyInformation).toEqual({
    FULL_NAME: 'Sandbox Sender',
    NATIONALITY: 'US',
    TAX_ID: 'SANDBOX_TAX_ID',
  });
  const asked = waiting({ ...change.set });
  expect(awaitsWebhookAnswer(asked)).toBe(true);
  expect(
    answeredChange({
      payment: asked,
      decision: { kind: 'REQUEST_FIELDS', fields: ['TAX_ID'] },
      now: NOW,
      timing,
      windows,
    }).set,
  ).toMatchObject({ failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' });
});

test('a payment no longer waiting for the webhook is not decided by it', () => {
  expect(awaitsWebhookAnswer(waiting({ approval: { phase: 'DEFERRED' } }))).toBe(false);
  expect(awaitsWebhookAnswer(waiting({ approval: undefined }))).toBe(false);
  expect(awaitsWebhookAnswer(waiting({ status: 'FAILED' }))).toBe(false);
});
