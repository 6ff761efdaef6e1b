import { BeginKeyedRequestResponse_Outcome } from '../../gen/quotes_transactions/v1/idempotency';
import { requestFingerprint } from '../../lib/idempotency-key';
import { externalAccountBody, INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';
import { agentCustomer, asAgent, connectedAgent, quoteBody, transferOut } from './agent-fixtures';
import {
  accountQuote,
  balanceOf,
  expectError,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
} from './payments-fixtures';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(async () => {
  await sys.stop();
});

let seq = 0;
const newKey = () => `key-${process.pid}-${seq++}-${Date.now()}`;
const keyed = (key: string, json?: unknown) => ({
  method: 'POST',
  headers: { 'Idempotency-Key': key },
  ...(json === undefined ? {} : { json }),
});

async function payer(balance = 100_000) {
  const c = await payingCustomer(sys);
  if (balance > 0) await fund(sys, c.usdAccountId, balance);
  return {
    ...c,
    usdBank: await externalAccount(sys, c.customerId, 'USD_ACCOUNT'),
    mxnPayee: await externalAccount(sys, c.customerId, 'MXN_ACCOUNT'),
  };
}

describe('the same key and body replay the first response', () => {
  test('a quote: the first 201 and body, even after it was executed and paid', async () => {
    const c = await payer();
    const key = newKey();
    const body = accountQuote(c.usdAccountId, c.mxnPayee, 1_000);
    const first = await sys.api('/quotes', keyed(key, body));
    expect(first.status).toBe(201);
    expect((await sys.api(`/quotes/${first.body.id}/execute`, { method: 'POST' })).status).toBe(200);
    await transactionWhen(sys, first.body.transactionId, (t) => t.status === 'COMPLETED');
    const again = await sys.api('/quotes', keyed(key, body));
    expect({ status: again.status, body: again.body }).toEqual({ status: 201, body: first.body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await sys.api(`/quotes/${first.body.id}`)).body.status).not.toBe(first.body.status);
  });

  test('an execution: the first 200, and the quote paid once', async () => {
    const c = await payer();
    const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(c.usdAccountId, c.mxnPayee, 1_000) });
    const key = newKey();
    const first = await sys.api(`/quotes/${quote.body.id}/execute`, keyed(key));
    expect(first.status).toBe(200);
    await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');
    const again = await sys.api(`/quotes/${quote.body.id}/execute`, keyed(key));
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
    expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(100_000 - 1_000);
  });

  test('an error answer is replayed too (4xx), with its status and body', async () => {
    const c = await payer(0);
    const key = newKey();
    const body = transferOut(c.usdAccountId, c.usdBank, 500);
    const first = await sys.api('/transfer-out', keyed(key, body));
    expectError(first, 400, 'INSUFFICIENT_BALANCE');
    await fund(sys, c.usdAccountId, 1_000);
    const again = await sys.api('/transfer-out', keyed(key, body));
    expect({ status: again.status, body: again.body }).toEqual({ status: 400, body: first.body });
    expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000);
  });

  test('a KYC link: the same link again', async () => {
    const c = await payingCustomer(sys);
    const key = newKey();
    const first = await sys.api(
      `/customers/${c.customerId}/kyc-link`,
      keyed(key, { redirectUri: 'https://example.com/done' }),
    );
    expect(first.status).toBe(201);
    const again = await sys.api(
      `/customers/${c.customerId}/kyc-link`,
      keyed(key, { redirectUri: 'https://example.com/done' }),
    );
    expect(again.body).toEqual(first.body);
    const fresh = await sys.api(
      `/customers/${c.customerId}/kyc-link`,
      keyed(newKey(), { redirectUri: 'https://example.com/done' }),
    );
    expect(fresh.body.kycUrl).not.toBe(first.body.kycUrl);
  });
});

describe('a key reused for another request answers 422 and does nothing', () => {
  test('another body, another operation, the execution of another quote', async () => {
    const c = await payer();
    const key = newKey();
    expect((await sys.api('/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 100)))).status).toBe(201);
    const otherBody = await sys.api('/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 9_999)));
    expectError(otherBody, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(otherBody.body.details).toEqual({ reason: 'OTHER_BODY' });
    const otherOperation = await sys.api(
      '/transfer-in',
      keyed(key, { source: { accountId: c.usdBank }, destination: { accountId: c.usdAccountId }, amount: 100 }),
    );
    expectError(otherOperation, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(otherOperation.body.details).toEqual({ reason: 'OTHER_OPERATION' });
    const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(c.usdAccountId, c.mxnPayee, 1_000) });
    expectError(await sys.api(`/quotes/${quote.body.id}/execute`, keyed(key)), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect((await sys.api(`/quotes/${quote.body.id}`)).body.status).toBe('PENDING');
    expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(100_000 - 100);
  });

  test('members in another order are the same body', async () => {
    const c = await payer();
    const key = newKey();
    const first = await sys.api(
      '/transfer-out',
      keyed(key, { amount: 100, destination: { accountId: c.usdBank }, source: { accountId: c.usdAccountId } }),
    );
    const again = await sys.api('/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 100)));
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
  });
});

test('while the first request with the key is in progress: 409 CONFLICT, nothing done', async () => {
  const c = await payer();
  const key = newKey();
  const body = transferOut(c.usdAccountId, c.usdBank, 100);
  // Another gateway replica holds the key for this very request.
  const held = await sys.system.peers.idempotency.beginKeyedRequest(
    { key, operation: 'POST /transfer-out', fingerprint: requestFingerprint(body) },
    { platformId: sys.sandbox.platformId },
  );
  expect(held.outcome).toBe(BeginKeyedRequestResponse_Outcome.STARTED);
  const res = await sys.api('/transfer-out', keyed(key, body));
  expectError(res, 409, 'CONFLICT');
  expect(res.body.details).toEqual({ reason: 'IDEMPOTENCY_KEY_IN_FLIGHT' });
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(100_000);
});

test('a 5xx answer is not stored: the retry runs', async () => {
  const c = await payer();
  const key = newKey();
  const body = transferOut(c.usdAccountId, c.usdBank, 100);
  const scope = { key, operation: 'POST /transfer-out', fingerprint: requestFingerprint(body) };
  const ctx = { platformId: sys.sandbox.platformId };
  const held = await sys.system.peers.idempotency.beginKeyedRequest(scope, ctx);
  const stored = await sys.system.peers.idempotency.completeKeyedRequest({
    key,
    claim: held.claim,
    response: { status: 503, body: '{"status":503}' },
  }, ctx);
  expect(stored.stored).toBe(false);
  const res = await sys.api('/transfer-out', keyed(key, body));
  expect(res.status).toBe(201);
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(100_000 - 100);
});

test("another platform's same key is its own", async () => {
  const key = newKey();
  const mine = await payer();
  const other = await sys.createPlatform();
  const as = (path: string, init: Parameters<TestSystem['api']>[1] = {}) =>
    sys.api(path, { ...init, auth: other.auth });
  const terms = await as('/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const customer = await as('/customers', {
    method: 'POST',
    json: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: `other-${key}`, endUserTermsConsent: consent },
  });
  expect(customer.status).toBe(201);
  const usd =
    (await as(`/customers/internal-accounts?customerId=${customer.body.id}&type=INTERNAL_FIAT&currency=USD`)).body
      .data[0].id;
  expect((await as(`/sandbox/internal-accounts/${usd}/fund`, { method: 'POST', json: { amount: 1_000 } })).status).toBe(
    200,
  );
  const bank = await as('/customers/external-accounts', {
    method: 'POST',
    json: { ...externalAccountBody('USD_ACCOUNT'), customerId: customer.body.id },
  });
  expect(bank.status).toBe(201);
  const first = await sys.api('/transfer-out', keyed(key, transferOut(mine.usdAccountId, mine.usdBank, 100)));
  const theirs = await as('/transfer-out', keyed(key, transferOut(usd, bank.body.id, 100)));
  expect([first.status, theirs.status]).toEqual([201, 201]);
  expect(theirs.body.id).not.toBe(first.body.id);
});

describe('agents', () => {
  test(
    "the issue's misuse: the key with another amount, on "
      + "transfer-in, on another quote's execution: 422, nothing else done",
    async () => {
      const c = await agentCustomer(sys);
      const me = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
      const key = newKey();
      const first = await me('/agents/me/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 100)));
      expect(first.status).toBe(201);
      expectError(
        await me('/agents/me/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 9_999))),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
      expectError(
        await me(
          '/agents/me/transfer-in',
          keyed(key, { source: { accountId: c.usdBank }, destination: { accountId: c.usdAccountId }, amount: 100 }),
        ),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
      const quote = await me('/agents/me/quotes', {
        method: 'POST',
        json: quoteBody(c.usdAccountId, c.mxnPayee, 1_000),
      });
      expect(quote.status).toBe(201);
      expectError(await me(`/agents/me/quotes/${quote.body.id}/execute`, keyed(key)), 422, 'IDEMPOTENCY_KEY_REUSED');
      const again = await me('/agents/me/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 100)));
      expect({ status: again.status, body: again.body }).toEqual({ status: 201, body: first.body });
      expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000 - 100);
      expect((await me('/agents/me')).body.usage.dailyTransactionCount).toBe(1);
    },
  );

  test("keys are scoped per agent, and apart from the platform's", async () => {
    const c = await agentCustomer(sys);
    const one = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
    const two = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
    const key = newKey();
    const a = await one('/agents/me/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 100)));
    const b = await two('/agents/me/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 200)));
    const platform = await sys.api('/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 300)));
    expect([a.status, b.status, platform.status]).toEqual([201, 201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000 - 600);
  });
});

describe('50 identical keyed requests at once: one effect, the rest replay it or answer 409', () => {
  const settle = (results: { status: number; body: any }[], success: number) => {
    const done = results.filter((r) => r.status === success);
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(
      results.every((r) =>
        r.status === success || (r.status === 409 && r.body.details?.reason === 'IDEMPOTENCY_KEY_IN_FLIGHT')
      ),
    ).toBe(true);
    expect(new Set(done.map((r) => JSON.stringify(r.body))).size).toBe(1);
    return done[0].body;
  };

  test('transfers out: one debit', async () => {
    const c = await payer();
    const key = newKey();
    const results = await Promise.all(
      Array.from(
        { length: 50 },
        () => sys.api('/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 100))),
      ),
    );
    settle(results, 201);
    expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(100_000 - 100);
  });

  test('quotes: one quote', async () => {
    const c = await payer();
    const key = newKey();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => sys.api('/quotes', keyed(key, accountQuote(c.usdAccountId, c.mxnPayee, 1_000)))),
    );
    const quote = settle(results, 201);
    const listed = await sys.api(`/quotes?customerId=${c.customerId}`);
    expect(listed.body.data.map((q: { id: string }) => q.id)).toEqual([quote.id]);
  });

  test('executions of one quote: one transaction, one debit', async () => {
    const c = await payer();
    const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(c.usdAccountId, c.mxnPayee, 1_000) });
    const key = newKey();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => sys.api(`/quotes/${quote.body.id}/execute`, keyed(key))),
    );
    settle(results, 200);
    expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(100_000 - 1_000);
  });

  test("an agent's transfers out: one action, one debit", async () => {
    const c = await agentCustomer(sys);
    const me = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
    const key = newKey();
    const results = await Promise.all(
      Array.from(
        { length: 50 },
        () => me('/agents/me/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 100))),
      ),
    );
    settle(results, 201);
    expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000 - 100);
    expect((await me('/agents/me')).body.usage.dailyTransactionCount).toBe(1);
  });
});

test(
  "the key's syntax: 1 to 255 printable ASCII characters, listed "
    + "with the body's errors; the draft's quoted form is the same key",
  async () => {
    const c = await payer();
    const long = await sys.api(
      '/transfer-out',
      keyed('k'.repeat(256), { source: { accountId: c.usdAccountId }, amount: 'x' }),
    );
    expectError(long, 400, 'INVALID_INPUT');
    expect(long.body.details.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['Idempotency-Key', 'amount', 'destination']),
    );
    const key = newKey();
    const bare = await sys.api('/transfer-out', keyed(key, transferOut(c.usdAccountId, c.usdBank, 100)));
    const quoted = await sys.api('/transfer-out', keyed(`"${key}"`, transferOut(c.usdAccountId, c.usdBank, 100)));
    expect({ status: quoted.status, body: quoted.body }).toEqual({ status: 201, body: bare.body });
    expect((await sys.api('/transfer-out', keyed('k'.repeat(255), transferOut(c.usdAccountId, c.usdBank, 100)))).status)
      .toBe(201);
  },
);
