import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeDocument } from '../../lib/store/sqlite-statements';
import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { balanceRecordsOf } from '../../services/quotes-transactions/ledger/store/ledger-document-store';
import { freePort } from '../fixtures/free-port';
import { startWebhookReceiver, type ReceiverAnswer, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { killSystemProcess, startSystemProcess, type SystemProcess } from '../reliability/system-process';

/**
 * Two servers, one machine: two instances of grid-payments as separate processes (`node
 * dist/main.js`), each with its own data directory, port and UMA domain, pay each other over the
 * UMA protocol: lookup, quote (the signed pay request; B's platform approves through its webhook),
 * execute (the sandbox Lightning leg, proven to B by A's signed post-transaction callback).
 */
const AUTH = `Basic ${Buffer.from('sandbox-token:sandbox-secret-0000000000').toString('base64')}`;

interface Server {
  name: string;
  port: number;
  domain: string;
  dataDir: string;
  process: SystemProcess;
  webhooks: WebhookReceiver;
  answers: Map<number, ReceiverAnswer>;
}

interface Party {
  server: Server;
  customerId: string;
  address: string;
  usd: string;
}

const servers: Server[] = [];
let a: Server;
let b: Server;

const env = (port: number, dataDir: string) => ({
  PORT: String(port),
  DATA_DIR: dataDir,
  UMA_DOMAIN: `localhost:${port}`,
  SANDBOX_SETTLEMENT_STEP_MS: '30',
  SETTLEMENT_POLL_MS: '20',
  UMA_SETTLEMENT_POLL_MS: '50',
  INCOMING_APPROVAL_ANSWER_MS: '15000',
});

async function api(
  server: Server,
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.process.rootUrl}/2025-10-13${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: AUTH, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function start(name: string): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `uma-${name}-`));
  const process = await startSystemProcess(env(port, dataDir));
  const partial = { name, port, domain: `localhost:${port}`, dataDir, process } as Server;
  partial.answers = new Map();
  partial.webhooks = await startWebhookReceiver({
    publicKeyPem: (await api(partial, '/webhooks/public-key')).body.publicKeyPem,
    checkContract: false,
  });
  partial.webhooks.answerWith((w) => {
    const amount = (w.data as { receivedAmount?: { amount?: number } }).receivedAmount?.amount;
    return w.type === 'INCOMING_PAYMENT.PENDING' && amount !== undefined ? partial.answers.get(amount) : undefined;
  });
  expect((await api(partial, '/config', { method: 'PATCH', json: { webhookEndpoint: partial.webhooks.url } })).status)
    .toBe(200);
  servers.push(partial);
  return partial;
}

let seq = 0;
async function customer(server: Server, local: string, funded = 0): Promise<Party> {
  const terms = await api(server, '/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const address = `$${local}@${server.domain}`;
  const created = await api(server, '/customers', {
    method: 'POST',
    json: {
      ...INDIVIDUAL_CUSTOMER,
      platformCustomerId: `two-${seq++}`,
      endUserTermsConsent: consent,
      umaAddress: address,
    },
  });
  expect(created.status).toBe(201);
  const accounts = await api(
    server,
    `/customers/internal-accounts?customerId=${created.body.id}&type=INTERNAL_FIAT&currency=USD`,
  );
  const usd = accounts.body.data[0].id as string;
  if (funded) {
    expect(
      (await api(server, `/sandbox/internal-accounts/${usd}/fund`, { method: 'POST', json: { amount: funded } }))
        .status,
    ).toBe(200);
  }
  return { server, customerId: created.body.id, address, usd };
}

async function balance(p: Party): Promise<number> {
  const res = await api(p.server, `/customers/internal-accounts?customerId=${p.customerId}`);
  return res.body.data.find((x: { id: string }) => x.id === p.usd).balance.amount;
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A server's ledger balances: every step balances per currency, so all balances of a currency sum to zero. */
function unbalancedCurrencies(server: Server): Array<[string, number]> {
  const db = new Database(join(server.dataDir, 'quotes-transactions.sqlite'), { readonly: true });
  try {
    const rows = db.prepare("SELECT body FROM documents WHERE collection = 'ledger_balances'").all() as Array<
      { body: Buffer }
    >;
    const sums = new Map<string, number>();
    for (const b of rows.flatMap((r) => balanceRecordsOf(decodeDocument(r.body) as Record<string, unknown>))) {
      sums.set(b.currency, (sums.get(b.currency) ?? 0) + b.available);
    }
    return [...sums].filter(([, sum]) => sum !== 0);
  } finally {
    db.close();
  }
}

async function pay(from: Party, to: Party, amount: number) {
  const lookup = await api(
    from.server,
    `/receiver/uma/${encodeURIComponent(to.address)}?customerId=${from.customerId}`,
  );
  expect(lookup).toEqual({ status: 200, body: expect.objectContaining({ lookupId: expect.any(String) }) });
  const quote = await api(from.server, '/quotes', {
    method: 'POST',
    json: {
      lookupId: lookup.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: from.usd },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: to.address, currency: 'USD' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: amount,
      senderCustomerInfo: { FULL_NAME: 'Alice Sender' },
    },
  });
  return { lookup, quote };
}

beforeAll(async () => {
  [a, b] = await Promise.all([start('a'), start('b')]);
}, 240_000);

afterAll(async () => {
  for (const s of servers) {
    await killSystemProcess(s.process, 'SIGTERM');
    await s.webhooks.close().catch(() => undefined);
    rmSync(s.dataDir, { recursive: true, force: true });
  }
});

test(
  'a customer of A pays $bob@B: B approves through its webhook, debited and credited once, both platforms told',
  async () => {
    const alice = await customer(a, 'alice', 100_000);
    const bob = await customer(b, 'bob');
    b.answers.set(2_500, { status: 200, body: {} });
    const { lookup, quote } = await pay(alice, bob, 2_500);
    expect(quote.status).toBe(201);
    // B's platform was asked, with A's compliance data decrypted.
    const asked = b.webhooks.arrivals.find((w) =>
      w.type === 'INCOMING_PAYMENT.PENDING' && (w.data as any).receivedAmount?.amount === 2_500
    )!;
    expect(asked.data).toMatchObject({
      type: 'INCOMING',
      source: { umaAddress: `$alice@${a.domain}` },
      counterpartyInformation: { FULL_NAME: 'Alice Sender' },
    });

    const executed = await api(a, `/quotes/${quote.body.id}/execute`, { method: 'POST' });
    expect(executed.status).toBe(200);
    const sent = await until(
      () => api(a, `/transactions/${quote.body.transactionId}`),
      (r) => r.body.status === 'COMPLETED',
    );
    expect(sent.body.status).toBe('COMPLETED');
    const received = await until(() => api(b, `/transactions/${asked.data.id}`), (r) => r.body.status === 'COMPLETED');
    expect(received.body).toMatchObject({ status: 'COMPLETED', type: 'INCOMING', receivedAmount: { amount: 2_500 } });
    expect(await balance(alice)).toBe(100_000 - quote.body.totalSendingAmount);
    expect(await balance(bob)).toBe(2_500);
    await b.webhooks.waitFor(() =>
      b.webhooks.arrivals.some((w) => w.type === 'INCOMING_PAYMENT.COMPLETED' && w.data.id === asked.data.id)
    );
    await a.webhooks.waitFor(() =>
      a.webhooks.arrivals.some((w) => w.type === 'OUTGOING_PAYMENT.COMPLETED' && w.data.id === quote.body.transactionId)
    );
    // Nothing more moves later (once).
    await new Promise((r) => setTimeout(r, 500));
    expect(await balance(bob)).toBe(2_500);
    expect(unbalancedCurrencies(a)).toEqual([]);
    expect(unbalancedCurrencies(b)).toEqual([]);
  },
  120_000,
);

test("a 403 at B refuses the payment: A's quote fails with SENDER_NOT_ACCEPTED and nothing is debited", async () => {
  const alice = await customer(a, 'alice2', 50_000);
  const bob = await customer(b, 'bob2');
  b.answers.set(1_700, { status: 403, body: {} });
  const { quote } = await pay(alice, bob, 1_700);
  expect(quote).toEqual({ status: 400, body: expect.objectContaining({ code: 'SENDER_NOT_ACCEPTED' }) });
  expect(await balance(alice)).toBe(50_000);
  expect(await balance(bob)).toBe(0);
}, 120_000);

test('and the same from B to A', async () => {
  const carol = await customer(b, 'carol', 30_000);
  const dave = await customer(a, 'dave');
  a.answers.set(1_234, { status: 200, body: {} });
  const { quote } = await pay(carol, dave, 1_234);
  expect(quote.status).toBe(201);
  expect((await api(b, `/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  const sent = await until(
    () => api(b, `/transactions/${quote.body.transactionId}`),
    (r) => r.body.status === 'COMPLETED',
  );
  expect(sent.body.status).toBe('COMPLETED');
  expect(await until(() => balance(dave), (v) => v === 1_234)).toBe(1_234);
  expect(await balance(carol)).toBe(30_000 - quote.body.totalSendingAmount);
  expect(unbalancedCurrencies(a)).toEqual([]);
  expect(unbalancedCurrencies(b)).toEqual([]);
}, 120_000);

test("B killed mid-flow: A's payment waits, and completes once B is back; credited once", async () => {
  const erin = await customer(a, 'erin', 40_000);
  const frank = await customer(b, 'frank');
  b.answers.set(3_100, { status: 200, body: {} });
  const { quote } = await pay(erin, frank, 3_100);
  expect(quote.status).toBe(201);
  const asked = b.webhooks.arrivals.find((w) =>
    w.type === 'INCOMING_PAYMENT.PENDING' && (w.data as any).receivedAmount?.amount === 3_100
  )!;
  await killSystemProcess(b.process, 'SIGKILL');
  expect((await api(a, `/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  await new Promise((r) => setTimeout(r, 1_000));
  // A holds the payment while B cannot be told: debited, not completed, not refunded.
  const waiting = await api(a, `/transactions/${quote.body.transactionId}`);
  expect(waiting.body.status).toBe('PROCESSING');
  expect(await balance(erin)).toBe(40_000 - quote.body.totalSendingAmount);
  b.process = await startSystemProcess(env(b.port, b.dataDir));
  const sent = await until(
    () => api(a, `/transactions/${quote.body.transactionId}`),
    (r) => r.body.status === 'COMPLETED',
    30_000,
  );
  expect(sent.body.status).toBe('COMPLETED');
  const received = await until(
    () => api(b, `/transactions/${asked.data.id}`),
    (r) => r.body.status === 'COMPLETED',
    30_000,
  );
  expect(received.body.status).toBe('COMPLETED');
  await new Promise((r) => setTimeout(r, 500));
  expect(await balance(frank)).toBe(3_100);
  expect(await balance(erin)).toBe(40_000 - quote.body.totalSendingAmount);
  expect(unbalancedCurrencies(a)).toEqual([]);
  expect(unbalancedCurrencies(b)).toEqual([]);
}, 240_000);
