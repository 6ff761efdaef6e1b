import { createPublicKey } from 'node:crypto';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';

let sys: TestSystem;
let publicKeyPem: string;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  sys = await startTestSystem({ env: { WEBHOOK_POLL_INTERVAL_MS: '50' } });
  publicKeyPem = (await sys.api('/webhooks/public-key')).body.publicKeyPem;
});
afterAll(async () => {
  await sys.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(options: { failFirst?: number; failStatus?: number } = {}) {
  const r = await startWebhookReceiver({ publicKeyPem, affects: (w) => w.type === 'TEST', ...options });
  receivers.push(r);
  return r;
}

async function platformWithEndpoint(url: string): Promise<string> {
  const { auth } = await sys.createPlatform();
  const res = await sys.api('/config', { method: 'PATCH', auth, json: { webhookEndpoint: url } });
  expect(res.status).toBe(200);
  return auth;
}

const sendTest = (auth?: string) => sys.api('/sandbox/webhooks/test', { method: 'POST', auth });

test('the public key: P-256 SPKI PEM, with the algorithm and header named', async () => {
  const res = await sys.api('/webhooks/public-key');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    algorithm: 'ECDSA-P256-SHA256',
    signatureHeader: 'X-Grid-Signature',
    publicKeyPem: expect.any(String),
    publicKeyHex: expect.stringMatching(/^04[0-9a-f]{128}$/),
  });
  const key = createPublicKey(res.body.publicKeyPem);
  expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
});

test(
  '200: the TEST webhook reaches the endpoint signed; the answer '
    + 'gives its status and timing, never the body of what answered',
  async () => {
    const r = await receiver();
    const auth = await platformWithEndpoint(r.url);
    const res = await sendTest(auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: r.url, response_status: 200, duration_ms: expect.any(Number) });
    expect(JSON.stringify(res.body)).not.toContain('received');
    // Events of the new platform may arrive too; the TEST webhook is the one this call sent.
    const tests = r.accepted.filter((w) => w.type === 'TEST');
    expect(tests).toEqual([{
      id: expect.stringMatching(/^Webhook:[0-9a-f-]{36}$/),
      type: 'TEST',
      timestamp: expect.any(String),
      data: {},
    }]);
    expect(r.refused).toBe(0);

    const log = await sys.api('/webhooks/deliveries?type=TEST', { auth });
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({
      id: tests[0].id,
      type: 'TEST',
      status: 'DELIVERED',
      attemptCount: 1,
      maxAttempts: 1,
    });
    expect(log.body.data[0].attempts).toEqual([
      {
        attempt: 1,
        attemptedAt: expect.any(String),
        url: r.url,
        statusCode: 200,
        durationMs: expect.any(Number),
        outcome: 'ACKNOWLEDGED',
      },
    ]);
  },
);

test('400 WEBHOOK_ENDPOINT_NOT_SET for a platform without an endpoint', async () => {
  const { auth } = await sys.createPlatform();
  const res = await sendTest(auth);
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('WEBHOOK_ENDPOINT_NOT_SET');
});

describe('400 WEBHOOK_DELIVERY_ERROR', () => {
  test('the endpoint answers 500', async () => {
    const r = await receiver({ failFirst: 1, failStatus: 500 });
    const res = await sendTest(await platformWithEndpoint(r.url));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('WEBHOOK_DELIVERY_ERROR');
    expect(res.body.details).toEqual({ url: r.url, responseStatus: 500, durationMs: expect.any(Number) });
    expect(JSON.stringify(res.body)).not.toContain('try again later');
  });
  test('nothing listens at the endpoint', async () => {
    const r = await receiver();
    await r.close();
    const res = await sendTest(await platformWithEndpoint(r.url));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('WEBHOOK_DELIVERY_ERROR');
    expect(res.body.details).toEqual({
      url: r.url,
      error: expect.stringMatching(/^connection failed/),
      durationMs: expect.any(Number),
    });
  });
  test('the test webhook is not retried', async () => {
    const r = await receiver({ failFirst: 1, failStatus: 503 });
    const auth = await platformWithEndpoint(r.url);
    expect((await sendTest(auth)).status).toBe(400);
    const log = await sys.api('/webhooks/deliveries?type=TEST', { auth });
    expect(log.body.data[0]).toMatchObject({ status: 'FAILED', attemptCount: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.arrivals.filter((w) => w.type === 'TEST')).toHaveLength(1);
  });
});

test('401 without credentials', async () => {
  const res = await sys.api('/sandbox/webhooks/test', { method: 'POST', auth: false });
  expect(res.status).toBe(401);
  expect(res.body.code).toBe('UNAUTHORIZED');
});

test('POST /webhooks/test (what newer SDK releases call) is the same operation as the sandbox path', async () => {
  const r = await receiver();
  const auth = await platformWithEndpoint(r.url);
  const res = await sys.api('/webhooks/test', { method: 'POST', auth });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ url: r.url, response_status: 200, duration_ms: expect.any(Number) });
  expect(r.accepted.filter((w) => w.type === 'TEST')).toHaveLength(1);
});

test('a changed endpoint is used by the very next delivery: the test webhook right after PATCH /config', async () => {
  const [first, second] = [await receiver(), await startWebhookReceiver({ publicKeyPem })];
  receivers.push(second);
  const auth = await platformWithEndpoint(first.url);
  expect((await sendTest(auth)).body.url).toBe(first.url);
  expect((await sys.api('/config', { method: 'PATCH', auth, json: { webhookEndpoint: second.url } })).status).toBe(200);
  const res = await sendTest(auth);
  expect(res.body).toMatchObject({ url: second.url, response_status: 200 });
  expect(first.accepted.filter((w) => w.type === 'TEST')).toHaveLength(1);
  expect(second.accepted.filter((w) => w.type === 'TEST')).toHaveLength(1);
});
