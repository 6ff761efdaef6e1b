import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startMetrics, type MetricsEndpoint } from '../../lib/metrics';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import {
  accountQuote,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
} from '../http/payments-fixtures';

/** What an operator scrapes from /metrics (the port of METRICS_PORT) while payments flow. */
let metrics: MetricsEndpoint;
let sys: TestSystem;
let receiver: WebhookReceiver;

beforeAll(async () => {
  metrics = await startMetrics({ serviceName: 'grid-payments', port: 0, host: '127.0.0.1' });
  sys = await startTestSystem({
    env: {
      ...FAST_SETTLEMENT,
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_RETRY_MAX_DELAY_MS: '100',
    },
  });
  receiver = await startWebhookReceiver({
    publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem,
    failFirst: 1,
  });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await sys?.stop();
  await receiver?.close();
  await metrics?.stop();
});

async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The sum of a series' samples whose labels include `labels` (Prometheus text format); undefined when none. */
function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum = (sum ?? 0) + Number(m[3]);
  }
  return sum;
}

test('after a payment, the series an operator watches have moved', async () => {
  const before = await scrape();
  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 50_000);
  const payee = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
  const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, payee, 10_000) });
  expect(quote.status).toBe(201);
  expect((await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');
  await receiver.waitFor(
    () =>
      receiver.accepted.some((w) => w.type === 'OUTGOING_PAYMENT.COMPLETED' && w.data.id === quote.body.transactionId),
    30_000,
  );
  expect((await sys.api('/quotes/Quote:00000000-0000-4000-8000-000000000000')).status).toBe(404);
  const after = await scrape();
  const moved = (name: string, labels: Record<string, string> = {}) =>
    (value(after, name, labels) ?? 0) - (value(before, name, labels) ?? 0);

  // REST, per operation id (never the raw path): rate, errors, latency.
  expect(
    moved('http_server_request_duration_seconds_count', { operation: 'createQuote', http_response_status_code: '201' }),
  ).toBe(1);
  expect(
    moved('http_server_request_duration_seconds_count', {
      operation: 'executeQuote',
      http_response_status_code: '200',
    }),
  ).toBe(1);
  expect(
    moved('http_server_request_duration_seconds_count', { operation: 'getQuote', http_response_status_code: '404' }),
  ).toBe(1);
  expect(after).not.toContain(quote.body.id); // no identifiers in labels
  expect(moved('http_server_request_duration_seconds_bucket', { operation: 'executeQuote', le: '+Inf' })).toBe(1);
  // gRPC, per method, with the outcome.
  expect(
    moved('rpc_server_duration_seconds_count', {
      rpc_service: 'quotes_transactions.v1.QuoteService',
      rpc_method: 'executeQuote',
      code: 'OK',
    }),
  ).toBe(1);
  expect(moved('rpc_server_duration_seconds_count', { rpc_method: 'getQuote', code: 'QUOTE_NOT_FOUND' }))
    .toBeGreaterThanOrEqual(1);
  // Payments by state and the ledger.
  expect(moved('payments_transitions_total', { type: 'OUTGOING', status: 'COMPLETED' })).toBe(1);
  expect(moved('payments_transitions_total', { type: 'OUTGOING', status: 'PENDING' })).toBeGreaterThanOrEqual(1);
  expect(moved('ledger_postings_total', { currency: 'USD' })).toBeGreaterThanOrEqual(2);
  expect(moved('ledger_steps_total', { result: 'APPLIED' })).toBeGreaterThanOrEqual(2);
  // Webhooks: the first attempt was refused, the retry acknowledged.
  expect(moved('webhook_deliveries_total', { status: 'DELIVERED' })).toBeGreaterThanOrEqual(1);
  expect(value(after, 'webhook_deliveries_total', { status: 'PENDING' })).toBeGreaterThanOrEqual(1);
  expect(value(after, 'webhook_deliveries_unfinished')).toBeGreaterThanOrEqual(0);
  expect(value(after, 'webhook_deliveries_oldest_unfinished_age_seconds')).toBeGreaterThanOrEqual(0);
  // The outboxes, and the store.
  expect(moved('outbox_events_published_total', { topic: 'payments.events.v1' })).toBeGreaterThanOrEqual(3);
  expect(value(after, 'outbox_pending', { topic: 'payments.events.v1' })).toBeGreaterThanOrEqual(0);
  expect(moved('store_operation_duration_seconds_count', { collection: 'payments', operation: 'updateOne' }))
    .toBeGreaterThanOrEqual(2);
}, 120_000);

test('an event that occurs while a platform has no endpoint is counted, not recorded as a delivery', async () => {
  const { auth } = await sys.createPlatform();
  expect(
    (await sys.api('/config', { method: 'PATCH', auth, json: { webhookExtensionTypes: ['CUSTOMER.CREATED'] } })).status,
  ).toBe(200);
  const unrecorded = async () =>
    value(await scrape(), 'webhook_events_unrecorded_total', { type: 'CUSTOMER.CREATED' }) ?? 0;
  const before = await unrecorded();
  const created = await sys.api('/customers', {
    method: 'POST',
    auth,
    json: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: `no-endpoint-${Date.now()}` },
  });
  expect(created.status).toBe(201);
  for (const end = Date.now() + 30_000; (await unrecorded()) === before; await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > end) throw new Error('the event was not counted');
  }
  expect(await unrecorded()).toBe(before + 1);
  const log = await sys.api('/webhooks/deliveries?limit=100', { auth });
  expect(log.status).toBe(200);
  expect(log.body.data).toEqual([]);
}, 60_000);

test('only /metrics is served on the metrics port', async () => {
  expect((await fetch(`http://127.0.0.1:${metrics.port}/`)).status).toBe(404);
});
