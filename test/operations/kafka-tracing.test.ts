import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter as OtlpGrpc } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as OtlpJson } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProto } from '@opentelemetry/exporter-trace-otlp-proto';
import { otlpExporter, otlpProtocol, startTelemetry } from '../../lib/telemetry';
import { startKafkaMockCluster, type KafkaMockCluster } from '../kafka-mock/kafka-mock-cluster';
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

/** One trace from the REST request through Kafka to the webhook it causes, on the real wire protocol. */
const exporter = new InMemorySpanExporter();
startTelemetry({ serviceName: 'kafka-tracing-test', exporter });
jest.setTimeout(120_000);

let cluster: KafkaMockCluster;
let sys: TestSystem;
let receiver: WebhookReceiver;
beforeAll(async () => {
  cluster = await startKafkaMockCluster([
    'accounts.events.v1:3',
    'auth.events.v1:3',
    'payments.events.v1:3',
    'notifications.events.v1:3',
  ]);
  sys = await startTestSystem({
    env: {
      KAFKA_BROKERS: cluster.brokers.join(','),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '500',
      KAFKA_MAX_WAIT_MS: '200',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      ...FAST_SETTLEMENT,
    },
  });
  const key = await sys.api('/webhooks/public-key');
  receiver = await startWebhookReceiver({ publicKeyPem: key.body.publicKeyPem ?? key.body.publicKey });
  // CUSTOMER.CREATED is an extension type: the trace below follows one, so this platform opts into it.
  expect(
    (await sys.api('/config', {
      method: 'PATCH',
      json: { webhookEndpoint: receiver.url, webhookExtensionTypes: ['CUSTOMER.CREATED'] },
    })).status,
  ).toBe(200);
}, 10 * 60_000);
afterAll(async () => {
  await sys?.stop();
  await receiver?.close();
  await cluster?.stop();
});

const byKind = (spans: ReadableSpan[], kind: SpanKind, prefix: string) =>
  spans.filter((s) => s.kind === kind && s.name.startsWith(prefix));
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

test('request → producer → consumer → webhook attempt: one trace, each span the child of the last', async () => {
  const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  const created = await sys.api('/customers', {
    method: 'POST',
    headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    json: { customerType: 'INDIVIDUAL', platformCustomerId: 'traced-1', fullName: 'Traced Customer' },
  });
  expect(created.status).toBe(201);
  await receiver.waitFor(
    () =>
      receiver.accepted.some((w) => w.type === 'CUSTOMER.CREATED' && JSON.stringify(w.data).includes(created.body.id)),
    60_000,
  );
  await new Promise((r) => setTimeout(r, 300));

  const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const [send] = byKind(spans, SpanKind.PRODUCER, 'send accounts.events.v1');
  expect(send).toBeDefined();
  expect(send.attributes).toMatchObject({
    'messaging.system': 'kafka',
    'messaging.operation.type': 'send',
    'messaging.destination.name': 'accounts.events.v1',
  });
  const processes = byKind(spans, SpanKind.CONSUMER, 'process accounts.events.v1').filter((s) =>
    parentOf(s) === send.spanContext().spanId
  );
  const webhookGroup = processes.find((s) =>
    String(s.attributes['messaging.consumer.group.name']).startsWith('notifications-webhooks')
  );
  expect(webhookGroup?.attributes).toMatchObject({
    'messaging.system': 'kafka',
    'messaging.operation.type': 'process',
  });
  expect(webhookGroup!.attributes['messaging.kafka.offset']).toEqual(expect.any(Number));

  const attempts = byKind(spans, SpanKind.CLIENT, 'POST').filter((s) =>
    s.attributes['webhook.type'] === 'CUSTOMER.CREATED'
  );
  expect(attempts.length).toBeGreaterThanOrEqual(1);
  expect(attempts[0].attributes).toMatchObject({
    'http.request.method': 'POST',
    'http.response.status_code': 200,
    'webhook.attempt': 1,
    'server.address': '127.0.0.1',
  });
  // The attempt belongs to the trace of the consumer that recorded it.
  expect(spans.map((s) => s.spanContext().spanId)).toContain(parentOf(attempts[0]));
});

test('settlement steps, long after the request, join the trace that executed the payment, as webhooks do', async () => {
  const payer = await payingCustomer(sys);
  const payee = await externalAccount(sys, payer.customerId);
  await fund(sys, payer.usdAccountId, 100_000);
  const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(payer.usdAccountId, payee, 10_000) });
  expect(quote.status).toBe(201);
  const traceId = '0b1c2d3e4f5061728394a5b6c7d8e9f0';
  const executed = await sys.api(`/quotes/${quote.body.id}/execute`, {
    method: 'POST',
    headers: { traceparent: `00-${traceId}-1234567890abcdef-01` },
  });
  expect(executed.status).toBe(200);
  const transactionId = executed.body.transactionId as string;
  await transactionWhen(sys, transactionId, (t) => t.status === 'COMPLETED', 30_000);
  await receiver.waitFor(
    () =>
      receiver.accepted.some((w) =>
        w.type === 'OUTGOING_PAYMENT.COMPLETED' && JSON.stringify(w.data).includes(transactionId)
      ),
    60_000,
  );
  await new Promise((r) => setTimeout(r, 300));

  const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const steps = spans.filter((s) => s.name === 'settlement step' && s.attributes['payment.id'] === transactionId);
  expect(steps.length).toBeGreaterThanOrEqual(1);
  const completedAttempt = spans.find((s) =>
    s.kind === SpanKind.CLIENT && s.attributes['webhook.type'] === 'OUTGOING_PAYMENT.COMPLETED'
  );
  expect(completedAttempt).toBeDefined();
  expect(byKind(spans, SpanKind.PRODUCER, 'send payments.events.v1').length).toBeGreaterThanOrEqual(2);
});

test('health and readiness probes record no span, here or in the services they ask', async () => {
  await new Promise((r) => setTimeout(r, 200));
  exporter.reset();
  for (let i = 0; i < 3; i++) {
    expect((await fetch(`${sys.rootUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${sys.rootUrl}/healthz`)).status).toBe(200);
  }
  await new Promise((r) => setTimeout(r, 200));
  const probeSpans = exporter.getFinishedSpans().filter((s) =>
    /readyz|healthz|AuthenticateApiToken|Health/.test(s.name)
  );
  expect(probeSpans.map((s) => s.name)).toEqual([]);
});

test('OTEL_EXPORTER_OTLP_PROTOCOL chooses the exporter: http/protobuf by default, grpc, http/json', () => {
  expect(otlpProtocol({})).toBe('http/protobuf');
  expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toBe('grpc');
  expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' })).toBe(
    'http/json',
  );
  expect(() => otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift' })).toThrow(/http\/protobuf, http\/json or grpc/);
  const made = (['http/protobuf', 'grpc', 'http/json'] as const).map((p) => otlpExporter(p));
  expect(made[0]).toBeInstanceOf(OtlpProto);
  expect(made[1]).toBeInstanceOf(OtlpGrpc);
  expect(made[2]).toBeInstanceOf(OtlpJson);
  return Promise.all(made.map((e) => e.shutdown()));
});
