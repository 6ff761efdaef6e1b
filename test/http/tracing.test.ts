import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startTelemetry } from '../../lib/telemetry';
import { startTestSystem, type TestSystem } from '../system-harness';

const exporter = new InMemorySpanExporter();
startTelemetry({ serviceName: 'test', exporter });

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem();
});
afterAll(async () => {
  await sys.stop();
});

test('one REST request is one trace across the gateway and the gRPC calls it makes', async () => {
  exporter.reset();
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const res = await sys.api('/customers', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
  expect(res.status).toBe(200);
  await new Promise((r) => setTimeout(r, 50));
  const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const names = spans.map((s) => s.name);
  expect(names).toContain('GET /customers');
  expect(names).toContain('/accounts.v1.AccountsService/ListCustomers');
  // Client and server side of the call, both children within the same trace.
  expect(names.filter((n) => n === '/accounts.v1.AccountsService/ListCustomers')).toHaveLength(2);
});
