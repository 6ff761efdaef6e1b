import { randomBytes } from 'node:crypto';
import { makeGrpcTestCertificates } from '../fixtures/grpc-test-certificates';
import { killSystemProcess, startSystemProcess } from '../reliability/system-process';

/**
 * `node dist/main.js all` with GRPC_TLS_*: the gateway reaches its services' thread over mutual
 * TLS (loopback), and serves. A key that is not the certificate's stops the start (exit 2).
 */
const certs = makeGrpcTestCertificates();
certs.issue('grid');
afterAll(() => certs.remove());

test('all-in-one over mutual TLS: ready, and an authenticated request goes through the services', async () => {
  const secret = randomBytes(24).toString('base64url');
  const system = await startSystemProcess({
    DATA_DIR: ':memory:',
    SANDBOX_API_CLIENT_SECRET: secret,
    ...certs.settings('grid'),
  });
  try {
    expect(system.logs.some((l) => l.msg === 'gRPC between components: mutual TLS')).toBe(true);
    expect((await fetch(`${system.rootUrl}/readyz`)).status).toBe(200);
    const auth = `Basic ${Buffer.from(`sandbox-token:${secret}`).toString('base64')}`;
    const customers = await fetch(`${system.rootUrl}/2025-10-13/customers`, { headers: { authorization: auth } });
    expect(customers.status).toBe(200);
  } finally {
    await killSystemProcess(system, 'SIGTERM');
  }
});

test("a key that is not the certificate's stops the start, naming the setting", async () => {
  certs.issue('other');
  const started = startSystemProcess({
    DATA_DIR: ':memory:',
    ...certs.settings('grid'),
    GRPC_TLS_KEY_FILE: certs.at('other.key'),
  });
  await expect(started).rejects.toThrow(
    /exited \(2\).*GRPC_TLS_KEY_FILE is not the private key of the certificate in GRPC_TLS_CERT_FILE/s,
  );
});

test(
  'mutual TLS to IP addresses keeps the logs JSON only: no DEP0123 '
    + "text lines (the gateway dials its services' gRPC at 127.0.0.1)",
  async () => {
    const secret = randomBytes(24).toString('base64url');
    const system = await startSystemProcess({
      DATA_DIR: ':memory:',
      SANDBOX_API_CLIENT_SECRET: secret,
      SERVICES_THREAD_TRANSPORT: 'grpc',
      LOG_LEVEL: 'debug',
      ...certs.settings('grid'),
    });
    try {
      const auth = `Basic ${Buffer.from(`sandbox-token:${secret}`).toString('base64')}`;
      expect((await fetch(`${system.rootUrl}/2025-10-13/customers`, { headers: { authorization: auth } })).status).toBe(
        200,
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(system.stderr.filter((line) => line.trim())).toEqual([]);
      expect(system.logs.some((l) => l.code === 'DEP0123')).toBe(true); // the warning came, as a JSON line
    } finally {
      await killSystemProcess(system, 'SIGTERM');
    }
  },
);
