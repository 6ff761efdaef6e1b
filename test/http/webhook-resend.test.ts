import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';

/** POST /webhooks/deliveries/{id}/resend (our extension) and the payload in the delivery log. */
let sys: TestSystem;
let receiver: WebhookReceiver;
beforeAll(async () => {
  sys = await startTestSystem({
    components: ['gateway', 'auth', 'accounts', 'notifications'],
    env: { WEBHOOK_POLL_INTERVAL_MS: '20' },
  });
  receiver = await startWebhookReceiver({
    publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem,
    checkContract: false,
  });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await sys?.stop();
});

async function deliveryWhen(id: string, done: (d: any) => boolean) {
  for (let i = 0; i < 200; i++) {
    const d = (await sys.api(`/webhooks/deliveries/${id}`)).body;
    if (done(d)) return d;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`delivery ${id} never reached the expected state`);
}

/** The sandbox test webhook: one attempt, recorded in the log (FAILED when the receiver refuses it). */
async function testWebhook() {
  const before = new Set((await sys.api('/webhooks/deliveries?type=TEST&limit=100')).body.data.map((d: any) => d.id));
  await sys.api('/webhooks/test', { method: 'POST' });
  const delivery = (await sys.api('/webhooks/deliveries?type=TEST&limit=100')).body.data.find((d: any) =>
    !before.has(d.id)
  );
  expect(delivery).toBeDefined();
  return { delivery };
}

test('a failed delivery is resent: a new attempt with the same id and data reaches the receiver', async () => {
  receiver.setFailures(1, 500);
  const { delivery } = await testWebhook();
  const failed = await deliveryWhen(delivery.id, (d) => d.status === 'FAILED');
  expect(failed.attempts.map((a: any) => a.statusCode)).toEqual([500]);

  const resent = await sys.api(`/webhooks/deliveries/${delivery.id}/resend`, { method: 'POST' });
  expect(resent.status).toBe(200);
  expect(resent.body).toMatchObject({ id: delivery.id, status: 'PENDING', maxAttempts: 2, data: failed.data });
  const delivered = await deliveryWhen(delivery.id, (d) => d.status === 'DELIVERED');
  expect(delivered.attempts.map((a: any) => [a.attempt, a.statusCode, a.outcome])).toEqual([[1, 500, 'REJECTED'], [
    2,
    200,
    'ACKNOWLEDGED',
  ]]);
  const arrived = receiver.accepted.find((w) => w.id === delivery.id)!;
  expect(arrived.data).toEqual(delivered.data);

  // Delivered: resent again on request; pending or unknown: refused.
  expect((await sys.api(`/webhooks/deliveries/${delivery.id}/resend`, { method: 'POST' })).status).toBe(200);
  const twice = await sys.api(`/webhooks/deliveries/${delivery.id}/resend`, { method: 'POST' });
  expect([200, 409]).toContain(twice.status); // 409 while the previous resend is still pending
  await deliveryWhen(delivery.id, (d) => d.status === 'DELIVERED' && d.attempts.length >= 3);
  expect(
    (await sys.api('/webhooks/deliveries/Webhook:00000000-0000-4000-8000-000000000000/resend', { method: 'POST' }))
      .status,
  ).toBe(404);
});

test('another platform cannot resend it; a VIEW token may not', async () => {
  const { delivery } = await testWebhook();
  await deliveryWhen(delivery.id, (d) => d.status === 'DELIVERED');
  const other = await sys.createPlatform();
  expect((await sys.api(`/webhooks/deliveries/${delivery.id}/resend`, { method: 'POST', auth: other.auth })).status)
    .toBe(404);
  const viewer =
    (await sys.api('/tokens', { method: 'POST', json: { name: 'resend viewer', permissions: ['VIEW'] } })).body;
  const auth = `Basic ${Buffer.from(`${viewer.clientId}:${viewer.clientSecret}`).toString('base64')}`;
  expect((await sys.api(`/webhooks/deliveries/${delivery.id}/resend`, { method: 'POST', auth })).status).toBe(403);
});
