import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';

let sys: TestSystem;
let publicKeyPem: string;
const receivers: WebhookReceiver[] = [];
let seq = 0;

beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_RETRY_MAX_DELAY_MS: '100',
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_TIMEOUT_MS: '1000',
    },
  });
  publicKeyPem = (await sys.api('/webhooks/public-key')).body.publicKeyPem;
});
afterAll(async () => {
  await sys.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

/** A new platform whose webhook endpoint is a fresh receiver, opted into CUSTOMER.CREATED. */
async function platformWithReceiver(
  options: Parameters<typeof startWebhookReceiver>[0] extends infer O ? Omit<O, 'publicKeyPem'> : never,
) {
  const receiver = await startWebhookReceiver({ publicKeyPem, ...options });
  receivers.push(receiver);
  const { auth } = await sys.createPlatform();
  // CUSTOMER.CREATED (an extension type, opted into) is the event these tests make deliveries of.
  expect(
    (await sys.api('/config', {
      method: 'PATCH',
      auth,
      json: { webhookEndpoint: receiver.url, webhookExtensionTypes: ['CUSTOMER.CREATED'] },
    })).status,
  ).toBe(200);
  return { auth, receiver };
}

async function createCustomer(auth: string): Promise<string> {
  const res = await sys.api('/customers', {
    method: 'POST',
    auth,
    json: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: `webhooks-${seq++}` },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const customerWebhooks = (receiver: WebhookReceiver) => receiver.accepted.filter((w) => w.type === 'CUSTOMER.CREATED');

interface DeliveryJson {
  id: string;
  status: string;
  attempts: Array<{ statusCode?: number }>;
}

/** The whole log of the platform once nothing is left to attempt. */
async function settledLog(auth: string): Promise<DeliveryJson[]> {
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const res = await sys.api('/webhooks/deliveries?limit=100', { auth });
    expect(res.status).toBe(200);
    if (res.body.data.every((d: DeliveryJson) => d.status !== 'PENDING' && d.status !== 'DELIVERING')) {
      return res.body.data;
    }
  }
  throw new Error('deliveries still pending');
}

test('a receiver that fails, then recovers, gets every event once, each verified with the published key', async () => {
  const { auth, receiver } = await platformWithReceiver({ failFirst: 5, failStatus: 503 });
  const customerIds = [await createCustomer(auth), await createCustomer(auth), await createCustomer(auth)];
  await receiver.waitFor(() => customerWebhooks(receiver).length === 3, 20_000);
  expect(customerWebhooks(receiver).map((w) => w.data.customerId).sort()).toEqual([...customerIds].sort());

  // Events from before the endpoint was set left no record; every recorded one was delivered, once.
  const sent = await settledLog(auth);
  expect(sent.every((d) => d.status === 'DELIVERED')).toBe(true);
  expect(new Set(receiver.accepted.map((w) => w.id))).toEqual(new Set(sent.map((d) => d.id)));
  for (const w of receiver.accepted) expect(receiver.arrivalsOf(w.id)).toBe(1);
  expect(receiver.refused).toBe(0);
  const statusCodes = sent.flatMap((d) => d.attempts.map((a) => a.statusCode));
  expect(statusCodes.filter((s) => s === 503)).toHaveLength(5);
  expect(statusCodes.filter((s) => s === 200)).toHaveLength(sent.length);
  expect(receiver.arrivals).toHaveLength(sent.length + 5);
});

test('a timed-out attempt is retried; the receiver answering 409 for an id it has closes the delivery', async () => {
  const { auth, receiver } = await platformWithReceiver({
    delayFirst: 1,
    delayMs: 1_500,
    affects: (w) => w.type === 'CUSTOMER.CREATED',
  });
  await createCustomer(auth);
  await receiver.waitFor(
    () => customerWebhooks(receiver).length === 1 && receiver.arrivalsOf(customerWebhooks(receiver)[0].id) === 2,
    20_000,
  );
  const id = customerWebhooks(receiver)[0].id;
  const res = await sys.api(`/webhooks/deliveries/${id}`, { auth });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({
    id,
    type: 'CUSTOMER.CREATED',
    status: 'DELIVERED',
    attemptCount: 2,
    deliveredAt: expect.any(String),
  });
  expect(
    res.body.attempts.map((
      a: { outcome: string; statusCode?: number; error?: string },
    ) => [a.outcome, a.statusCode, a.error]),
  ).toEqual([
    ['UNREACHABLE', undefined, 'no answer within 1000 ms'],
    ['ACKNOWLEDGED', 409, undefined],
  ]);
});

describe('the delivery log', () => {
  let auth: string;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    ({ auth, receiver } = await platformWithReceiver({}));
    for (let i = 0; i < 3; i++) await createCustomer(auth);
    await receiver.waitFor(() => customerWebhooks(receiver).length === 3);
  });

  test('pages newest first with a cursor', async () => {
    const first = await sys.api('/webhooks/deliveries?type=CUSTOMER.CREATED&limit=2', { auth });
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
    const second = await sys.api(`/webhooks/deliveries?type=CUSTOMER.CREATED&limit=2&cursor=${first.body.nextCursor}`, {
      auth,
    });
    expect(second.body).toMatchObject({ hasMore: false, totalCount: 3 });
    const ids = [...first.body.data, ...second.body.data].map((d: { id: string }) => d.id);
    expect(new Set(ids)).toEqual(new Set(customerWebhooks(receiver).map((w) => w.id)));
    const created = [...first.body.data, ...second.body.data].map((d: { createdAt: string }) => d.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
  });

  test('filters by status', async () => {
    const res = await sys.api('/webhooks/deliveries?status=FAILED', { auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], hasMore: false, totalCount: 0 });
  });

  test.each([
    ['an unknown status', '/webhooks/deliveries?status=LOST'],
    ['a limit out of range', '/webhooks/deliveries?limit=101'],
    ['a forged cursor', '/webhooks/deliveries?cursor=nope'],
    ['a malformed id', '/webhooks/deliveries/Webhook:123'],
  ])('400 INVALID_INPUT for %s', async (_name, path) => {
    const res = await sys.api(path, { auth });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
  });

  test("404 for an unknown id and for another platform's delivery", async () => {
    const unknown = await sys.api('/webhooks/deliveries/Webhook:00000000-0000-4000-8000-000000000000', { auth });
    expect(unknown.status).toBe(404);
    const foreign = await sys.api(`/webhooks/deliveries/${customerWebhooks(receiver)[0].id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('REFERENCE_NOT_FOUND');
  });
});
