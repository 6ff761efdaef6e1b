import {
  startWebhookReceiver,
  type ReceivedWebhook,
  type ReceiverAnswer,
  type WebhookReceiver,
} from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { balanceOf, payingCustomer, transactionWhen } from './payments-fixtures';

let sys: TestSystem;
let receiver: WebhookReceiver;
let customerId: string;
let usd: string;
/** What the receiver answers to the approval webhook of each payment, by the amount it receives. */
const answers = new Map<number, ReceiverAnswer | 'DOWN'>();

beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      // The receiver's first answer waits for its contract validator to compile: on a busy machine
      // that exceeds 1 s, and the approval webhook is attempted once, so the timeout is generous.
      SANDBOX_SETTLEMENT_STEP_MS: '50',
      SETTLEMENT_POLL_MS: '20',
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_TIMEOUT_MS: '8000',
      INCOMING_APPROVAL_ANSWER_MS: '12000',
      INCOMING_APPROVAL_DEFERRED_MS: '2500',
    },
  });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  receiver.answerWith((w) => {
    const amount = (w.data as { receivedAmount?: { amount?: number } }).receivedAmount?.amount;
    if (w.type !== 'INCOMING_PAYMENT.PENDING' || amount === undefined) return undefined;
    const answer = answers.get(amount);
    return answer === 'DOWN' ? { status: 503, body: { down: true } } : answer;
  });
  ({ customerId, usdAccountId: usd } = await payingCustomer(sys, { umaAddress: '$approver@sandbox.example.com' }));
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
});
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

async function incoming(
  amount: number,
  answer: ReceiverAnswer | 'DOWN',
  sender = '$success.usd@sandbox.grid.uma.money',
) {
  answers.set(amount, answer);
  const res = await sys.api('/sandbox/uma/receive', {
    method: 'POST',
    json: {
      senderUmaAddress: sender,
      receiverUmaAddress: '$approver@sandbox.example.com',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: amount,
    },
  });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const approvalWebhooks = (id: string): ReceivedWebhook[] =>
  receiver.arrivals.filter((w) => w.type === 'INCOMING_PAYMENT.PENDING' && w.data.id === id);

test('200 approves: the payment settles and the receiver is credited to the unit', async () => {
  const before = await balanceOf(sys, customerId, usd);
  const id = await incoming(1_001, { status: 200, body: {} });
  const t = await transactionWhen(sys, id, (x) => x.status === 'COMPLETED');
  expect(t.failureReason).toBeUndefined();
  expect(await balanceOf(sys, customerId, usd)).toBe(before + 1_001);
  expect(approvalWebhooks(id)).toHaveLength(1);
  expect(approvalWebhooks(id)[0].data).toMatchObject({ id, status: 'PENDING', type: 'INCOMING' });
  expect(approvalWebhooks(id)[0].data).not.toHaveProperty('requestedReceiverCustomerInfoFields');
  expect(t).not.toHaveProperty('receiverCustomerInfo');
});

const RECEIVER_INFO_SENDER = '$receiverinfo.usd@sandbox.grid.uma.money';

test(
  'fields asked about the recipient and given in the 200: '
    + 'COMPLETED, receiverCustomerInfo in REST and the later webhooks',
  async () => {
    const before = await balanceOf(sys, customerId, usd);
    const info = {
      NATIONALITY: 'FR',
      POSTAL_ADDRESS: { line1: '1 rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
    };
    const id = await incoming(1_011, { status: 200, body: { receiverCustomerInfo: info } }, RECEIVER_INFO_SENDER);
    const t = await transactionWhen(sys, id, (x) => x.status === 'COMPLETED');
    expect(t.receiverCustomerInfo).toEqual(info);
    expect(await balanceOf(sys, customerId, usd)).toBe(before + 1_011);
    const [asked] = approvalWebhooks(id);
    expect(asked.data.requestedReceiverCustomerInfoFields).toEqual([{ name: 'NATIONALITY', mandatory: true }, {
      name: 'POSTAL_ADDRESS',
      mandatory: false,
    }]);
    expect(asked.data).not.toHaveProperty('receiverCustomerInfo');
    await receiver.waitFor(() =>
      receiver.arrivals.some((w) => w.type === 'INCOMING_PAYMENT.COMPLETED' && w.data.id === id)
    );
    const completed = receiver.arrivals.find((w) => w.type === 'INCOMING_PAYMENT.COMPLETED' && w.data.id === id)!;
    expect(completed.data.receiverCustomerInfo).toEqual(info);
    expect(completed.data).not.toHaveProperty('requestedReceiverCustomerInfoFields');
  },
);

test('a 200 without a mandatory asked field: PAYMENT_APPROVAL_WEBHOOK_ERROR, refunded, nothing credited', async () => {
  const before = await balanceOf(sys, customerId, usd);
  const id = await incoming(1_012, {
    status: 200,
    body: {
      receiverCustomerInfo: { POSTAL_ADDRESS: { line1: '1 Main St', city: 'X', postalCode: '1', country: 'US' } },
    },
  }, RECEIVER_INFO_SENDER);
  const t = await transactionWhen(sys, id, (x) => x.refund?.status === 'COMPLETED', 15_000);
  expect(t).toMatchObject({
    status: 'REFUNDED',
    failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
    refund: { reason: 'TRANSACTION_FAILED' },
  });
  expect(t).not.toHaveProperty('receiverCustomerInfo');
  expect(approvalWebhooks(id)).toHaveLength(1);
  expect(await balanceOf(sys, customerId, usd)).toBe(before);
});

test(
  'nothing asked about the recipient: the webhook carries no '
    + "requested fields and a 200's receiverCustomerInfo is kept as given",
  async () => {
    const id = await incoming(1_013, { status: 200, body: { receiverCustomerInfo: { EMAIL: 'r@example.com' } } });
    const t = await transactionWhen(sys, id, (x) => x.status === 'COMPLETED');
    expect(approvalWebhooks(id)[0].data).not.toHaveProperty('requestedReceiverCustomerInfoFields');
    expect(t.receiverCustomerInfo).toEqual({ EMAIL: 'r@example.com' });
  },
);

test('403 rejects: FAILED, refunded to the sender (REJECTED), and the receiver is never credited', async () => {
  const before = await balanceOf(sys, customerId, usd);
  const id = await incoming(1_002, {
    status: 403,
    body: { status: 403, code: 'FORBIDDEN', message: 'no', reason: 'RESTRICTED_JURISDICTION' },
  });
  const t = await transactionWhen(sys, id, (x) => x.refund?.status === 'COMPLETED');
  expect(t).toMatchObject({
    status: 'REJECTED',
    refund: { reason: 'TRANSACTION_FAILED', settledAt: expect.any(String) },
  });
  expect(await balanceOf(sys, customerId, usd)).toBe(before);
  expect(approvalWebhooks(id)).toHaveLength(1); // a 403 is an answer, never retried
  await receiver.waitFor(() => receiver.arrivals.some((w) => w.type === 'INCOMING_PAYMENT.FAILED' && w.data.id === id));
});

test(
  '422 asks the sender for the listed counterparty fields; '
    + 'the payment is asked about again with them, then approved',
  async () => {
    const before = await balanceOf(sys, customerId, usd);
    let asked = 0;
    answers.set(1_003, {
      status: 422,
      body: { status: 422, code: 'MISSING_FIELDS', message: 'more', requiredFields: ['NATIONALITY', 'BIRTH_DATE'] },
    });
    const id = await incoming(1_003, answers.get(1_003) as ReceiverAnswer);
    await receiver.waitFor(() => (asked = approvalWebhooks(id).length) >= 1);
    answers.set(1_003, { status: 200, body: {} });
    await transactionWhen(sys, id, (x) => x.status === 'COMPLETED');
    const [first, second] = approvalWebhooks(id);
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(second.id).not.toBe(first.id);
    expect(second.data.counterpartyInformation).toMatchObject({
      NATIONALITY: expect.any(String),
      BIRTH_DATE: expect.any(String),
    });
    expect(await balanceOf(sys, customerId, usd)).toBe(before + 1_003);
  },
);

test('202 defers to POST /transactions/{id}/approve within the window', async () => {
  const before = await balanceOf(sys, customerId, usd);
  const id = await incoming(1_004, { status: 202 });
  await receiver.waitFor(() => approvalWebhooks(id).length === 1);
  let approved;
  for (;;) {
    approved = await sys.api(`/transactions/${id}/approve`, { method: 'POST' });
    if (approved.status === 200) break;
    expect(approved.body.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL'); // the answer is not recorded yet
    await new Promise((r) => setTimeout(r, 20));
  }
  await transactionWhen(sys, id, (x) => x.status === 'COMPLETED');
  expect(await balanceOf(sys, customerId, usd)).toBe(before + 1_004);
});

test('202 defers to POST /transactions/{id}/reject within the window', async () => {
  const before = await balanceOf(sys, customerId, usd);
  const id = await incoming(1_005, { status: 202 });
  await receiver.waitFor(() => approvalWebhooks(id).length === 1);
  await transactionWhen(sys, id, () => true);
  for (;;) {
    const rejected = await sys.api(`/transactions/${id}/reject`, {
      method: 'POST',
      json: { reason: 'RESTRICTED_JURISDICTION' },
    });
    if (rejected.status === 200) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const t = await transactionWhen(sys, id, (x) => x.refund?.status === 'COMPLETED');
  expect(t.status).toBe('REJECTED');
  expect(await balanceOf(sys, customerId, usd)).toBe(before);
});

test(
  '202 with fields asked: approve must carry the mandatory ones '
    + '(400 listing them, still awaiting), then COMPLETED with them',
  async () => {
    const before = await balanceOf(sys, customerId, usd);
    const id = await incoming(1_014, { status: 202 }, RECEIVER_INFO_SENDER);
    await receiver.waitFor(() => approvalWebhooks(id).length === 1);
    let refused;
    for (;;) {
      refused = await sys.api(`/transactions/${id}/approve`, {
        method: 'POST',
        json: { receiverCustomerInfo: { POSTAL_ADDRESS: 'x' } },
      });
      if (refused.body.code !== 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL') break; // the 202 is not recorded yet
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [expect.objectContaining({ field: 'receiverCustomerInfo.NATIONALITY' })] },
    });
    const approved = await sys.api(`/transactions/${id}/approve`, {
      method: 'POST',
      json: { receiverCustomerInfo: { NATIONALITY: 'DE' } },
    });
    expect(approved.status).toBe(200);
    const t = await transactionWhen(sys, id, (x) => x.status === 'COMPLETED');
    expect(t.receiverCustomerInfo).toEqual({ NATIONALITY: 'DE' });
    expect(await balanceOf(sys, customerId, usd)).toBe(before + 1_014);
  },
);

test('202 and no call within the window: PAYMENT_APPROVAL_TIMED_OUT, refunded to the sender (REFUNDED)', async () => {
  const before = await balanceOf(sys, customerId, usd);
  const id = await incoming(1_006, { status: 202 });
  const t = await transactionWhen(sys, id, (x) => x.refund?.status === 'COMPLETED', 15_000);
  expect(t).toMatchObject({
    status: 'REFUNDED',
    failureReason: 'PAYMENT_APPROVAL_TIMED_OUT',
    refund: { reason: 'TRANSACTION_FAILED' },
  });
  expect(await balanceOf(sys, customerId, usd)).toBe(before);
  expect((await sys.api(`/transactions/${id}/approve`, { method: 'POST' })).body.code).toBe(
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
});

test('a failing receiver: PAYMENT_APPROVAL_WEBHOOK_ERROR at once, not retried, refunded to the sender', async () => {
  const before = await balanceOf(sys, customerId, usd);
  const id = await incoming(1_007, 'DOWN');
  const t = await transactionWhen(sys, id, (x) => x.refund?.status === 'COMPLETED', 15_000);
  expect(t).toMatchObject({
    status: 'REFUNDED',
    failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
    refund: { reason: 'TRANSACTION_FAILED' },
  });
  expect(approvalWebhooks(id)).toHaveLength(1);
  expect(await balanceOf(sys, customerId, usd)).toBe(before);
});

test('an unreachable receiver: PAYMENT_APPROVAL_WEBHOOK_ERROR', async () => {
  const gone = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  await gone.close();
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: gone.url } })).status).toBe(200);
  try {
    const before = await balanceOf(sys, customerId, usd);
    const id = await incoming(1_008, { status: 200 });
    const t = await transactionWhen(sys, id, (x) => x.refund?.status === 'COMPLETED', 15_000);
    expect(t).toMatchObject({
      status: 'REFUNDED',
      failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
      refund: { reason: 'TRANSACTION_FAILED' },
    });
    expect(await balanceOf(sys, customerId, usd)).toBe(before);
  } finally {
    expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
  }
});
