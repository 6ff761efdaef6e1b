import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { DEFAULT_SANDBOX } from '../../gateway/sandbox-bootstrap';
import { basicAuthHeader } from '../system-harness';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { FAST_SETTLEMENT, payerWithMxnPayee } from './payments-fixtures';
import { killSystemProcess, startSystemProcess, type SystemProcess } from '../reliability/system-process';

/**
 * `node dist/main.js all` with SERVICE_THREADS=each (the default from 4 cores) runs each service on
 * a thread of its own: the threads are there under
 * their names (what `top -H` shows), a payment crosses them (gateway → quotes-transactions →
 * accounts), and its events cross the bus from the quotes-transactions thread to the notifications
 * thread, which signs and delivers them as webhooks.
 */
const AUTH = basicAuthHeader(DEFAULT_SANDBOX.tokenId, DEFAULT_SANDBOX.clientSecret);
let system: SystemProcess;
let receiver: WebhookReceiver | undefined;

beforeAll(async () => {
  system = await startSystemProcess({
    DATA_DIR: ':memory:',
    ...FAST_SETTLEMENT,
    WEBHOOK_POLL_INTERVAL_MS: '20',
    SERVICE_THREADS: 'each',
  });
}, 180_000);
afterAll(async () => {
  if (system) await killSystemProcess(system, 'SIGTERM');
  await receiver?.close();
});

async function api(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const res = await fetch(`${system.rootUrl}/2025-10-13${path}`, {
    method,
    headers: { authorization: AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as any };
}

const threadNames = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).map((tid) => readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim());

(existsSync('/proc/self/task') ? test : test.skip)('each service runs on a thread of its own, named for top -H', () => {
  expect(threadNames(system.child.pid!)).toEqual(
    expect.arrayContaining(['grid-auth', 'grid-accounts', 'grid-quotes-tx', 'grid-notify']),
  );
});

(existsSync('/proc/self/task') ? test : test.skip)(
  'SERVICE_THREADS=one runs the four services on one thread',
  async () => {
    const one = await startSystemProcess({ DATA_DIR: ':memory:', SERVICE_THREADS: 'one' });
    try {
      const names = threadNames(one.child.pid!);
      expect(names).toContain('grid-services');
      expect(names).not.toEqual(expect.arrayContaining(['grid-auth']));
    } finally {
      await killSystemProcess(one, 'SIGTERM');
    }
  },
  120_000,
);

test('a payment crosses the threads, and its events reach the notifications thread as signed webhooks', async () => {
  receiver = await startWebhookReceiver({ publicKeyPem: (await api('/webhooks/public-key')).body.publicKeyPem });
  expect((await api('/config', { webhookEndpoint: receiver.url }, 'PATCH')).status).toBe(200);
  const { payerId, source, payeeId } = await payerWithMxnPayee(api, { platformCustomerId: 'threads-payer' });
  const quote = await api('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: payeeId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
    immediatelyExecute: true,
  });
  expect(quote.status).toBe(201);
  const transactionId = quote.body.transactionId as string;
  const hooks = receiver;
  await hooks.waitFor(
    () => hooks.accepted.some((w) => w.type === 'OUTGOING_PAYMENT.COMPLETED' && w.data.id === transactionId),
    60_000,
  );
  expect((await api(`/transactions/${transactionId}`)).body.status).toBe('COMPLETED');
  expect(
    (await api(`/customers/internal-accounts?customerId=${payerId}&type=INTERNAL_FIAT&currency=USD`)).body.data[0]
      .balance.amount,
  )
    .toBe(50_000 - quote.body.totalSendingAmount);
}, 120_000);
