import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_SANDBOX } from '../../gateway/sandbox-bootstrap';
import { basicAuthHeader } from '../system-harness';
import { apiUrl, checkResponse } from '../contract/response-contract';
import { payerWithMxnPayee } from './payments-fixtures';

/**
 * What `npm start` runs: `node dist/main.js all`, the services on a worker thread and the gateway
 * on the main one (the test command builds dist/ first), the gateway calling them over the
 * default thread transport (a MessagePort). A payment made over HTTP settles, and SIGTERM drains
 * both threads and ends the process cleanly.
 */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const AUTH = basicAuthHeader(DEFAULT_SANDBOX.tokenId, DEFAULT_SANDBOX.clientSecret);

const dataDir = mkdtempSync(join(tmpdir(), 'grid-all-in-one-'));
let child: ChildProcess;
let base: string;
const logs: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error('dist/main.js is missing: run `npm run build` (npm test does)');
  child = spawn(process.execPath, [MAIN, 'all'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SANDBOX_SETTLEMENT_STEP_MS: '50',
      SETTLEMENT_POLL_MS: '20',
      MONGODB_URI: '',
      KAFKA_BROKERS: '',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  base = await new Promise<string>((resolve, reject) => {
    // A busy machine (several builds at once) can take most of a minute to start the four services.
    const timer = setTimeout(() => reject(new Error('the system did not start')), 90_000);
    let url = '';
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      logs.push(entry);
      if (entry.msg === 'gateway listening') url = String(entry.url);
      // 'started' comes once the sandbox credentials exist too.
      if (entry.msg === 'started') {
        clearTimeout(timer);
        resolve(`${url}/2025-10-13`);
      }
    });
  });
}, 120_000);
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json() as any;
  checkResponse({
    method,
    url: apiUrl(path),
    status: res.status,
    body: json,
    contentType: res.headers.get('content-type'),
  });
  return { status: res.status, body: json };
}

test('a payment made through the one-command system settles; SIGTERM drains both threads', async () => {
  expect(logs.find((l) => l.msg === 'started')).toMatchObject({ servicesTransport: 'port' });
  const { payerId, source, payeeId } = await payerWithMxnPayee(api, {
    platformCustomerId: 'one-process-payer',
    birthDate: '1990-01-15',
    nationality: 'US',
  });
  const quote = await api('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: payeeId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  expect(quote.status).toBe(201);
  const executed = await api(`/quotes/${quote.body.id}/execute`, {});
  expect(executed.status).toBe(200);

  let status = '';
  for (let i = 0; i < 100 && status !== 'COMPLETED'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await api(`/transactions/${executed.body.transactionId}`)).body.status;
  }
  expect(status).toBe('COMPLETED');
  expect(
    (await api(`/customers/internal-accounts?customerId=${payerId}&type=INTERNAL_FIAT&currency=USD`)).body.data[0]
      .balance.amount,
  ).toBe(50_000 - quote.body.totalSendingAmount);

  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(logs.map((l) => l.msg)).toEqual(
    expect.arrayContaining(['grpc server listening', 'gateway listening', 'started', 'draining', 'stopped']),
  );
});
