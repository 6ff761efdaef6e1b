import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { expectError, FAST_SETTLEMENT, transactionWhen } from './payments-fixtures';

/**
 * UMA payments between customers on this server: of one platform, of two platforms, to oneself,
 * and (unchanged) to an address outside, over HTTP as a platform makes them.
 */

interface Platform {
  platformId: string;
  auth?: string;
  webhooks: WebhookReceiver;
}

interface Party {
  platform: Platform;
  customerId: string;
  umaAddress: string;
  usd: string;
}

let sys: TestSystem;
let a: Platform;
let b: Platform;
let seq = 0;

const as = (p: Platform) => (p.auth ? { auth: p.auth } : {});
const api = (p: Platform, path: string, init: Parameters<TestSystem['api']>[1] = {}) =>
  sys.api(path, { ...init, ...as(p) });

async function withWebhooks(platform: Omit<Platform, 'webhooks'>): Promise<Platform> {
  const webhooks = await startWebhookReceiver({
    publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem,
  });
  const p = { ...platform, webhooks };
  expect((await api(p, '/config', { method: 'PATCH', json: { webhookEndpoint: webhooks.url } })).status).toBe(200);
  return p;
}

async function customerOf(platform: Platform, fundedWith = 0, umaAddress?: string): Promise<Party> {
  const terms = await api(platform, '/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const created = await api(platform, '/customers', {
    method: 'POST',
    json: {
      ...INDIVIDUAL_CUSTOMER,
      platformCustomerId: `between-${process.pid}-${seq++}`,
      endUserTermsConsent: consent,
      ...(umaAddress ? { umaAddress } : {}),
    },
  });
  expect(created.status).toBe(201);
  const accounts = await api(
    platform,
    `/customers/internal-accounts?customerId=${created.body.id}&type=INTERNAL_FIAT&currency=USD`,
  );
  const party = {
    platform,
    customerId: created.body.id,
    umaAddress: created.body.umaAddress,
    usd: accounts.body.data[0].id,
  };
  if (fundedWith) {
    expect(
      (await api(platform, `/sandbox/internal-accounts/${party.usd}/fund`, {
        method: 'POST',
        json: { amount: fundedWith },
      })).status,
    ).toBe(200);
  }
  return party;
}

async function balance(p: Party): Promise<number> {
  const res = await api(p.platform, `/customers/internal-accounts?customerId=${p.customerId}`);
  return res.body.data.find((x: { id: string }) => x.id === p.usd).balance.amount;
}

async function incomingOf(p: Party): Promise<any[]> {
  const res = await api(p.platform, `/transactions?customerId=${p.customerId}&type=INCOMING&limit=100`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Looks the receiver's address up as the sender, then quotes to it and executes at once. */
async function pay(from: Party, toAddress: string, amount: number) {
  const lookup = await api(
    from.platform,
    `/receiver/uma/${encodeURIComponent(toAddress)}?customerId=${from.customerId}`,
  );
  expect(lookup.status).toBe(200);
  const quote = await api(from.platform, '/quotes', {
    method: 'POST',
    json: {
      lookupId: lookup.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: from.usd },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: toAddress, currency: 'USD' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      immediatelyExecute: true,
      senderCustomerInfo: { FULL_NAME: 'Ana Sender' },
    },
  });
  expect(quote.status).toBe(201);
  return quote.body;
}

async function incomingWhen(p: Party, count: number, timeoutMs = 15_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await incomingOf(p);
    if (list.length >= count && list.every((t) => t.status === 'COMPLETED')) return list;
    if (Date.now() > deadline) {
      throw new Error(`${p.customerId} has ${list.length} incoming: ${list.map((t) => t.status).join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

const webhooksOf = (p: Platform, type: string, id: string) =>
  p.webhooks.accepted.filter((w) => w.type === type && w.data.id === id);

beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      ...FAST_SETTLEMENT,
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_RETRY_MAX_DELAY_MS: '100',
    },
  });
  a = await withWebhooks({ platformId: sys.sandbox.platformId });
  b = await withWebhooks(await sys.createPlatform());
});
afterAll(async () => {
  await sys.stop();
  await Promise.all([a.webhooks.close(), b.webhooks.close()]);
});

test(
  'two customers of one platform: the sender is debited, the '
    + 'receiver credited, each with its transaction and webhooks',
  async () => {
    const sender = await customerOf(a, 50_000);
    const receiver = await customerOf(a);
    const lookup = await api(
      a,
      `/receiver/uma/${encodeURIComponent(receiver.umaAddress)}?customerId=${sender.customerId}`,
    );
    expect(lookup.status).toBe(200);
    // The receiver's own currencies (each customer holds USD and USDC accounts here), not a counterparty's.
    expect(lookup.body.supportedCurrencies.map((c: { currency: { code: string } }) => c.currency.code).sort()).toEqual([
      'USD',
      'USDC',
    ]);
    expect(lookup.body.receiverUmaAddress).toBe(receiver.umaAddress);

    const quote = await pay(sender, receiver.umaAddress, 12_345);
    const outgoing = await transactionWhen(sys, quote.transactionId, (t) => t.status === 'COMPLETED');
    const [incoming] = await incomingWhen(receiver, 1);
    expect(await balance(sender)).toBe(50_000 - 12_345);
    expect(await balance(receiver)).toBe(12_345);
    expect(incoming).toMatchObject({
      type: 'INCOMING',
      status: 'COMPLETED',
      customerId: receiver.customerId,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: sender.umaAddress },
      destination: { destinationType: 'ACCOUNT', accountId: receiver.usd },
      receivedAmount: { amount: 12_345, currency: { code: 'USD' } },
    });
    expect(outgoing).toMatchObject({ type: 'OUTGOING', destination: { umaAddress: receiver.umaAddress } });

    await a.webhooks.waitFor(
      () =>
        webhooksOf(a, 'INCOMING_PAYMENT.COMPLETED', incoming.id).length > 0
        && webhooksOf(a, 'OUTGOING_PAYMENT.COMPLETED', outgoing.id).length > 0,
      15_000,
    );
    expect(webhooksOf(a, 'INCOMING_PAYMENT.PENDING', incoming.id)).toHaveLength(1);
    expect(webhooksOf(a, 'INCOMING_PAYMENT.COMPLETED', incoming.id)[0].data).toMatchObject({
      id: incoming.id,
      status: 'COMPLETED',
      type: 'INCOMING',
    });
  },
);

test(
  'customers of two platforms on this server: the receiving '
    + 'platform gets the INCOMING transaction and its webhooks',
  async () => {
    const sender = await customerOf(a, 30_000);
    const receiver = await customerOf(b);
    const quote = await pay(sender, receiver.umaAddress, 7_000);
    const outgoing = await transactionWhen(sys, quote.transactionId, (t) => t.status === 'COMPLETED');
    const [incoming] = await incomingWhen(receiver, 1);
    expect([await balance(sender), await balance(receiver)]).toEqual([23_000, 7_000]);
    expect(incoming).toMatchObject({
      status: 'COMPLETED',
      customerId: receiver.customerId,
      source: { umaAddress: sender.umaAddress },
    });

    await b.webhooks.waitFor(() => webhooksOf(b, 'INCOMING_PAYMENT.COMPLETED', incoming.id).length > 0, 15_000);
    await a.webhooks.waitFor(() => webhooksOf(a, 'OUTGOING_PAYMENT.COMPLETED', outgoing.id).length > 0, 15_000);
    // Each platform sees only its own side.
    expect(webhooksOf(a, 'INCOMING_PAYMENT.COMPLETED', incoming.id)).toHaveLength(0);
    expect(webhooksOf(b, 'OUTGOING_PAYMENT.COMPLETED', outgoing.id)).toHaveLength(0);
    expectError(await api(a, `/transactions/${incoming.id}`), 404, 'TRANSACTION_NOT_FOUND');
    expectError(await api(b, `/transactions/${outgoing.id}`), 404, 'TRANSACTION_NOT_FOUND');
  },
);

test("paying one's own UMA address is refused: 400 SELF_PAYMENT, nothing moves", async () => {
  const sender = await customerOf(a, 10_000);
  const lookup = await api(a, `/receiver/uma/${encodeURIComponent(sender.umaAddress)}?customerId=${sender.customerId}`);
  const quote = await api(a, '/quotes', {
    method: 'POST',
    json: {
      lookupId: lookup.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: sender.usd },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: sender.umaAddress, currency: 'USD' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
      immediatelyExecute: true,
    },
  });
  expectError(quote, 400, 'SELF_PAYMENT');
  expect(await balance(sender)).toBe(10_000);
  expect(await incomingOf(sender)).toEqual([]);
});

test('an address outside this server is paid to its counterparty: no INCOMING transaction here', async () => {
  const sender = await customerOf(a, 10_000);
  const lookup = await api(
    a,
    `/receiver/uma/${encodeURIComponent('$maria.mxn@uma.example.com')}?customerId=${sender.customerId}`,
  );
  expect(lookup.body.supportedCurrencies[0].currency.code).toBe('MXN');
  const quote = await api(a, '/quotes', {
    method: 'POST',
    json: {
      lookupId: lookup.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: sender.usd },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$maria.mxn@uma.example.com' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000,
      immediatelyExecute: true,
      senderCustomerInfo: { FULL_NAME: 'Ana Sender' },
    },
  });
  expect(quote.status).toBe(201);
  await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');
  expect(await balance(sender)).toBe(5_000);
  const incoming = await api(a, '/transactions?type=INCOMING&limit=100');
  expect(
    incoming.body.data.filter((t: { source: { umaAddress?: string } }) => t.source.umaAddress === sender.umaAddress),
  ).toEqual([]);
});

test(
  'a receiver deleted before the payment settles: the payment '
    + 'fails and the sender is refunded; a deleted address is not found',
  async () => {
    const sender = await customerOf(a, 20_000);
    const receiver = await customerOf(b);
    const lookup = await api(
      a,
      `/receiver/uma/${encodeURIComponent(receiver.umaAddress)}?customerId=${sender.customerId}`,
    );
    const quote = await api(a, '/quotes', {
      method: 'POST',
      json: {
        lookupId: lookup.body.lookupId,
        source: { sourceType: 'ACCOUNT', accountId: sender.usd },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver.umaAddress, currency: 'USD' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 4_000,
      },
    });
    expect(quote.status).toBe(201);
    expect((await api(b, `/customers/${receiver.customerId}`, { method: 'DELETE' })).status).toBe(200);
    expect((await api(a, `/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
    const failed = await transactionWhen(
      sys,
      quote.body.transactionId,
      (t) => t.status === 'FAILED' && t.refund?.status === 'COMPLETED',
    );
    expect(failed.failureReason).toBe('ACCOUNT_CANNOT_RECEIVE');
    expect(await balance(sender)).toBe(20_000);
    expect(await incomingOf(receiver)).toEqual([]);
    expectError(
      await api(a, `/receiver/uma/${encodeURIComponent(receiver.umaAddress)}?customerId=${sender.customerId}`),
      404,
      'UMA_NOT_FOUND',
    );
  },
);

test('40 payments at once between four customers of two platforms: each credited once, balances exact', async () => {
  const parties = [
    await customerOf(a, 100_000),
    await customerOf(a, 100_000),
    await customerOf(b, 100_000),
    await customerOf(b, 100_000),
  ];
  const payments = Array.from(
    { length: 40 },
    (_, i) => ({ from: parties[i % 4], to: parties[(i + 1 + (i % 3)) % 4], amount: 1_000 + i }),
  );
  const quotes = await Promise.all(payments.map((p) => pay(p.from, p.to.umaAddress, p.amount)));
  await Promise.all(
    quotes.map((q, i) =>
      transactionWhen(
        {
          ...sys,
          api: (path, init) => api(payments[i].from.platform, path, init),
        },
        q.transactionId,
        (t) => t.status === 'COMPLETED',
        30_000,
      )
    ),
  );
  const expected = new Map(parties.map((p) => [p, 100_000]));
  for (const p of payments) {
    expected.set(p.from, expected.get(p.from)! - p.amount);
    expected.set(p.to, expected.get(p.to)! + p.amount);
  }
  for (const p of parties) {
    const count = payments.filter((x) => x.to === p).length;
    const incoming = await incomingWhen(p, count, 30_000);
    expect(incoming).toHaveLength(count);
    expect(await balance(p)).toBe(expected.get(p));
  }
  // Nothing was created or lost: the customers hold exactly what they were funded with.
  expect((await Promise.all(parties.map(balance))).reduce((x, y) => x + y, 0)).toBe(400_000);
});

test(
  'an address two other platforms both use is refused (400 '
    + "INVALID_RECEIVER); the sender's own platform's holder wins",
  async () => {
    const c = await withWebhooks(await sys.createPlatform());
    const shared = `$shared${process.pid}@uma.sandbox.local`;
    const onB = await customerOf(b, 0, shared);
    await customerOf(c, 0, shared);
    const sender = await customerOf(a, 5_000);
    expectError(
      await api(a, `/receiver/uma/${encodeURIComponent(shared)}?customerId=${sender.customerId}`),
      400,
      'INVALID_RECEIVER',
    );
    const senderOnB = await customerOf(b, 5_000);
    await pay(senderOnB, shared, 1_500);
    const [incoming] = await incomingWhen(onB, 1);
    expect(incoming.receivedAmount.amount).toBe(1_500);
    await c.webhooks.close();
  },
);
