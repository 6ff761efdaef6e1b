import { killSystemProcess, startSystemProcess } from '../reliability/system-process';

/**
 * One failed request, two log lines that name it alike: the gateway's `request` line and the
 * service's `rpc` line carry the request id the client got back (X-Correlation-Id, `request-id`),
 * with tracing off and no `traceparent`, whichever way the gateway reaches its services.
 */
jest.setTimeout(5 * 60_000);

test.each(['port', 'grpc'])(
  "services reached over %s: the gateway's and the service's log lines of a failed request share its id",
  async (transport) => {
    const system = await startSystemProcess({
      DATA_DIR: ':memory:',
      LOG_LEVEL: 'debug',
      SERVICES_THREAD_TRANSPORT: transport,
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
    });
    try {
      const auth = `Basic ${Buffer.from('sandbox-token:sandbox-secret-0000000000').toString('base64')}`;
      const res = await fetch(`${system.rootUrl}/2025-10-13/customers/Customer:00000000-0000-4000-8000-00000000dead`, {
        headers: { authorization: auth },
      });
      expect(res.status).toBe(404);
      const id = res.headers.get('x-correlation-id')!;
      expect(res.headers.get('request-id')).toBe(id);
      await new Promise((r) => setTimeout(r, 300));
      const named = system.logs.filter((l) => l.correlationId === id);
      expect(named).toEqual(expect.arrayContaining([
        expect.objectContaining({ msg: 'request', status: 404 }),
        expect.objectContaining({
          msg: 'rpc',
          component: 'accounts',
          code: 'USER_NOT_FOUND',
          rpc: '/accounts.v1.AccountsService/GetCustomer',
        }),
      ]));
      expect(named.every((l) => l.traceId === undefined)).toBe(true);
    } finally {
      await killSystemProcess(system, 'SIGTERM');
    }
  },
);
