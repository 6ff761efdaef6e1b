import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, externalAccount, FAST_SETTLEMENT, fund, payingCustomer, transactionWhen } from './payments-fixtures';

let sys: TestSystem;
let receiver: WebhookReceiver;

beforeAll(async () => {
  sys = await startTestSystem({ env: { ...FAST_SETTLEMENT, WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_MAX_DELAY_MS: '100' } });
  // The platform fetches the published key once and verifies every webhook with it.
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem, failFirst: 2 });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
});
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

test('a payment that settles reaches the platform as signed OUTGOING_PAYMENT webhooks carrying the transaction', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 50_000);
  const payee = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
  const lookup = await sys.api(`/receiver/external-account/${payee}?customerId=${customerId}`);
  const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, payee, 10_000, { lookupId: lookup.body.lookupId }) });
  expect(quote.status).toBe(201);
  expect((await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  const settled = await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');

  const completed = () => receiver.accepted.find((w) => w.type === 'OUTGOING_PAYMENT.COMPLETED' && w.data.id === settled.id);
  await receiver.waitFor(() => completed() !== undefined, 15_000);
  expect(completed()!.data).toMatchObject({ id: settled.id, status: 'COMPLETED', type: 'OUTGOING', quoteId: quote.body.id });
  expect(receiver.refused).toBe(0);
  for (const w of receiver.accepted) expect(receiver.arrivalsOf(w.id)).toBe(1);
  // Balance updates travel their own path (accounts → notifications) and may land after the payment's own event.
  const balanceUpdated = () => receiver.accepted.some((w) => w.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED');
  await receiver.waitFor(balanceUpdated, 15_000);
  expect(balanceUpdated()).toBe(true);
});
