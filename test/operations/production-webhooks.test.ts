import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestCertificates, type TestCertificates } from '../kafka-mock/test-certificates';
import { verifyWebhook, type ReceivedWebhook } from '../fixtures/webhook-receiver';
import { killSystemProcess, startSystemProcess, type SystemProcess } from '../reliability/system-process';
import { SECRETS } from './rendered-overlay';

/**
 * GRID_MODE=production keeps webhooks off this machine and private networks, except at the
 * endpoints the operator approved (WEBHOOK_TRUSTED_ENDPOINTS) with their CA (WEBHOOK_TRUSTED_CA_FILE):
 * the operator's smoke test before go-live. The receiver here is an https server on this machine
 * whose certificate a throwaway CA signed; it verifies each webhook's signature as a platform would.
 */
jest.setTimeout(5 * 60_000);

let certificates: TestCertificates;
let receiver: Server;
let receiverPort: number;
let system: SystemProcess;
let dataDir: string;
const received: Array<{ path: string; webhook: ReceivedWebhook | undefined }> = [];
let publicKeyPem = '';
const auth = `Basic ${
  Buffer.from(`${SECRETS.SANDBOX_API_TOKEN_ID}:${SECRETS.SANDBOX_API_CLIENT_SECRET}`).toString('base64')
}`;
const api = (path: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${system.rootUrl}/2025-10-13${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });

beforeAll(async () => {
  certificates = makeTestCertificates();
  receiver = createServer({ cert: certificates.pem('serverCert'), key: certificates.pem('serverKey') }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const webhook = publicKeyPem
        ? verifyWebhook({
          rawBody: Buffer.concat(chunks),
          signature: req.headers['x-grid-signature'] as string | undefined,
          publicKey: createPublicKey(publicKeyPem),
          toleranceMs: 5 * 60_000,
        })
        : undefined;
      received.push({ path: req.url ?? '', webhook });
      res.writeHead(webhook ? 200 : 401).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverPort = (receiver.address() as AddressInfo).port;
  dataDir = mkdtempSync(join(tmpdir(), 'grid-production-webhooks-'));
  const { INTERNAL_TOKEN: _internal, MONGODB_URI: _mongo, SANDBOX_API_TOKEN_ID, SANDBOX_API_CLIENT_SECRET, ...keys } =
    SECRETS;
  system = await startSystemProcess({
    ...keys,
    GRID_MODE: 'production',
    DATA_DIR: dataDir,
    SANDBOX_API_TOKEN_ID,
    SANDBOX_API_CLIENT_SECRET,
    MESSAGE_DELIVERY_URL: 'http://127.0.0.1:9/messages',
    ACCOUNTS_UMA_DOMAIN: 'uma.example.com',
    ACCOUNTS_END_USER_TERMS_URL: 'https://example.com/terms',
    WEBHOOK_TRUSTED_ENDPOINTS: `https://localhost:${receiverPort}`,
    WEBHOOK_TRUSTED_CA_FILE: certificates.files.ca,
  });
  publicKeyPem = ((await (await api('/webhooks/public-key')).json()) as { publicKeyPem: string }).publicKeyPem;
}, 4 * 60_000);

afterAll(async () => {
  if (system) await killSystemProcess(system, 'SIGKILL');
  receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (certificates) rmSync(certificates.dir, { recursive: true, force: true });
});

test("an endpoint outside the operator's list is still refused: this machine, its other ports, http", async () => {
  for (
    const endpoint of [
      `https://127.0.0.1:${receiverPort}/hooks`,
      `https://localhost:${receiverPort + 1}/hooks`,
      `http://localhost:${receiverPort}/hooks`,
    ]
  ) {
    const res = await api('/config', { method: 'PATCH', json: { webhookEndpoint: endpoint } });
    expect({ endpoint, status: res.status, body: await res.json() }).toEqual({
      endpoint,
      status: 400,
      body: expect.objectContaining({
        code: 'INVALID_INPUT',
        details: expect.objectContaining({ errors: [expect.objectContaining({ field: 'webhookEndpoint' })] }),
      }),
    });
  }
});

test("a signed webhook reaches the approved https receiver, trusted through the operator's CA", async () => {
  expect(publicKeyPem).toContain('BEGIN PUBLIC KEY');
  const configured = await api('/config', {
    method: 'PATCH',
    json: { webhookEndpoint: `https://localhost:${receiverPort}/hooks` },
  });
  expect(configured.status).toBe(200);
  const sent = await api('/webhooks/test', { method: 'POST', json: {} });
  expect(sent.status).toBe(200);
  expect(await sent.json()).toMatchObject({ response_status: 200, url: `https://localhost:${receiverPort}/hooks` });
  expect(received).toEqual([{
    path: '/hooks',
    webhook: expect.objectContaining({ type: expect.any(String), id: expect.any(String) }),
  }]);
});
