import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import {
  accountQuote,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
} from './payments-fixtures';

let sys: TestSystem;
let receiver: WebhookReceiver;

beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      ...FAST_SETTLEMENT,
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_RETRY_MAX_DELAY_MS: '100',
    },
  });
  // The platform fetches the published key once and verifies every webhook with it.
  receiver = await startWebhookReceiver({
    publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem,
    failFirst: 2,
  });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
});
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

test('a settled payment reaches the platform as signed OUTGOING_PAYMENT webhooks with the transaction', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 50_000);
  const payee = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
  const lookup = await sys.api(`/receiver/external-account/${payee}?customerId=${customerId}`);
  const quote = await sys.api('/quotes', {
    method: 'POST',
    json: accountQuote(usdAccountId, payee, 10_000, { lookupId: lookup.body.lookupId }),
  });
  expect(quote.status).toBe(201);
  expect((await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  const settled = await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');

  const completed = () =>
    receiver.accepted.find((w) => w.type === 'OUTGOING_PAYMENT.COMPLETED' && w.data.id === settled.id);
  await receiver.waitFor(() => completed() !== undefined, 15_000);
  expect(completed()!.data).toMatchObject({
    id: settled.id,
    status: 'COMPLETED',
    type: 'OUTGOING',
    quoteId: quote.body.id,
  });
  expect(receiver.refused).toBe(0);
  for (const w of receiver.accepted) expect(receiver.arrivalsOf(w.id)).toBe(1);
  // Balance updates travel their own path (accounts → notifications) and may land after the payment's own event.
  const balanceUpdated = () => receiver.accepted.some((w) => w.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED');
  await receiver.waitFor(balanceUpdated, 15_000);
  expect(balanceUpdated()).toBe(true);
});

test(
  'every delivery verifies with the standardwebhooks library (Standard '
    + 'Webhooks v1), which refuses a changed body and a stale timestamp',
  async () => {
    const { body: secret } = await sys.api('/webhooks/signing-secret');
    expect(secret).toMatchObject({ scheme: 'v1', secret: expect.stringMatching(/^whsec_/), url: receiver.url });
    receiver.setStandardSecret(secret.secret);
    receiver.setFailures(1);
    const verifiedBefore = receiver.standardVerified;
    const { customerId, usdAccountId } = await payingCustomer(sys);
    await fund(sys, usdAccountId, 20_000);
    const payee = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
    const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, payee, 5_000) });
    expect((await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
    const completed = () =>
      receiver.accepted.find((w) => w.type === 'OUTGOING_PAYMENT.COMPLETED' && w.data.id === quote.body.transactionId);
    await receiver.waitFor(() => completed() !== undefined, 30_000);
    expect(receiver.refused).toBe(0);
    expect(receiver.standardVerified).toBeGreaterThan(verifiedBefore);

    const { body, headers } = receiver.raw.find((r) => r.headers['webhook-id'] === completed()!.id)!;
    const library = new Webhook(secret.secret);
    expect(library.verify(body, headers)).toMatchObject({ id: completed()!.id, type: 'OUTGOING_PAYMENT.COMPLETED' });
    expect(() => library.verify(body.replace('"COMPLETED"', '"FAILED"'), headers)).toThrow(WebhookVerificationError);
    const now = Date.now();
    const later = jest.spyOn(Date, 'now').mockReturnValue(now + 10 * 60_000);
    try {
      expect(() => library.verify(body, headers)).toThrow('Message timestamp too old');
    } finally {
      later.mockRestore();
    }
  },
);

test('a retried delivery keeps its webhook-id', () => {
  const byId = new Map<string, number>();
  for (const r of receiver.raw) {
    if (r.headers['webhook-id']) byId.set(r.headers['webhook-id'], (byId.get(r.headers['webhook-id']) ?? 0) + 1);
  }
  // failFirst and setFailures made at least one delivery arrive twice, under one id both times.
  expect([...byId.values()].some((n) => n > 1)).toBe(true);
  for (const [id, n] of byId) if (n > 1) expect(receiver.accepted.filter((w) => w.id === id)).toHaveLength(1);
});
