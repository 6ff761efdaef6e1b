import { INDIVIDUAL_CUSTOMER, externalAccountBody } from '../../services/accounts/test-fixtures/request-bodies';
import { referenceProblems } from '../contract/reference-contract';
import { startWebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { FAST_SETTLEMENT, transactionWhen } from './payments-fixtures';

/**
 * The requests Grid's TypeScript SDK (`@lightsparkdev/grid` 0.7.0, Stainless-generated) sends for
 * every endpoint we serve, byte for byte where it matters: its headers, JSON bodies only when the
 * method has one (POST /quotes/{id}/execute and POST /webhooks/test send none), list queries with
 * `cursor` and `limit`, and auto-pagination that follows `nextCursor` while `hasMore`. Every answer
 * is checked against our OpenAPI document (by the harness) and against the reference's response
 * schema for it, which is what the SDK's types declare.
 */
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(async () => {
  await sys.stop();
});

/** What the reference's schemas refused, over every answer of a test. */
let refused: string[] = [];
beforeEach(() => {
  refused = [];
});
afterEach(() => {
  expect(refused).toEqual([]);
});

const SDK_HEADERS = {
  Accept: 'application/json',
  'User-Agent': 'Grid/JS 0.7.0',
  'X-Stainless-Retry-Count': '0',
  'X-Stainless-Lang': 'js',
  'X-Stainless-Package-Version': '0.7.0',
  'X-Stainless-OS': 'Linux',
  'X-Stainless-Arch': 'x64',
  'X-Stainless-Runtime': 'node',
  'X-Stainless-Runtime-Version': process.version,
};

/** One SDK call: query values as the SDK's query stringifier writes them, a JSON body only when given. */
async function sdk(
  method: string,
  path: string,
  options: { query?: Record<string, string | number | boolean>; body?: unknown; headers?: Record<string, string> } = {},
) {
  const query = options.query
    ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)]))}`
    : '';
  const res = await sys.api(`${path}${query}`, {
    method,
    headers: { ...SDK_HEADERS, ...options.headers },
    ...(options.body === undefined ? {} : { json: options.body }),
  });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  refused.push(...referenceProblems(method, `${sys.baseUrl.replace(sys.rootUrl, '')}${path}`, res.status, res.body));
  return res.body;
}

/** The SDK's auto-pagination: every page until hasMore is false. */
async function walk(path: string, query: Record<string, string | number>): Promise<Array<{ id: string }>> {
  const items: Array<{ id: string }> = [];
  let cursor: string | undefined;
  do {
    const page = await sdk('GET', path, { query: { ...query, ...(cursor ? { cursor } : {}) } });
    items.push(...page.data);
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  return items;
}

test('config, customers and their accounts: retrieve, update, create, list (walked page by page)', async () => {
  expect((await sdk('GET', '/config')).id).toBeDefined();
  expect((await sdk('PATCH', '/config', { body: { umaDomain: 'sdk.example.com' } })).umaDomain).toBe('sdk.example.com');
  const created = [];
  for (let i = 0; i < 3; i++) {
    created.push(await sdk('POST', '/customers', { body: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: `sdk-${i}` } }));
  }
  expect((await sdk('GET', `/customers/${created[0].id}`)).platformCustomerId).toBe('sdk-0');
  expect(
    (await sdk('PATCH', `/customers/${created[0].id}`, { body: { customerType: 'INDIVIDUAL', fullName: 'Renamed' } }))
      .fullName,
  ).toBe('Renamed');
  const walked = await walk('/customers', { limit: 1 });
  expect(created.every((c) => walked.some((w) => w.id === c.id))).toBe(true);
  const internal = await sdk('GET', '/customers/internal-accounts', { query: { customerId: created[0].id } });
  expect(internal.data.length).toBeGreaterThan(0);
  const account = await sdk('POST', '/customers/external-accounts', {
    body: externalAccountBody('MXN_ACCOUNT', { customerId: created[0].id }),
  });
  expect(account.accountInfo.paymentRails).toEqual(['SPEI']);
  expect((await sdk('GET', '/customers/external-accounts', { query: { customerId: created[0].id } })).data)
    .toHaveLength(1);
  expect((await sdk('GET', '/platform/internal-accounts')).data.length).toBeGreaterThan(0);
  const platformAccount = await sdk('POST', '/platform/external-accounts', {
    body: externalAccountBody('USD_ACCOUNT'),
  });
  expect((await sdk('GET', '/platform/external-accounts')).data.map((a: { id: string }) => a.id)).toContain(
    platformAccount.id,
  );
});

test(
  'receiver lookups, quotes (create, retrieve, list, execute '
    + 'without a body), transactions, transfers and the test webhook',
  async () => {
    const payer = await sdk('POST', '/customers', {
      body: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'sdk-payer' },
    });
    const terms = await sdk('GET', '/customers/end-user-terms');
    await sdk('PATCH', `/customers/${payer.id}`, {
      body: {
        customerType: 'INDIVIDUAL',
        endUserTermsConsent: {
          acceptedAt: '2026-01-01T00:00:00Z',
          ipAddress: '203.0.113.7',
          termsVersion: terms.version,
          acceptanceMethod: 'CHECKBOX',
        },
      },
    });
    const usd = (await sdk('GET', '/customers/internal-accounts', {
      query: { customerId: payer.id, type: 'INTERNAL_FIAT', currency: 'USD' },
    })).data[0].id;
    await sdk('POST', `/sandbox/internal-accounts/${usd}/fund`, { body: { amount: 100_000 } });
    const payee = await sdk('POST', '/customers/external-accounts', {
      body: externalAccountBody('MXN_ACCOUNT', { customerId: payer.id }),
    });
    const lookup = await sdk('GET', `/receiver/external-account/${payee.id}`, { query: { customerId: payer.id } });
    expect(lookup.lookupId).toMatch(/^Lookup:/);
    expect(
      (await sdk('GET', '/receiver/uma/$success.usd@sandbox.grid.uma.money', { query: { customerId: payer.id } }))
        .lookupId,
    ).toMatch(/^Lookup:/);

    const quote = await sdk('POST', '/quotes', {
      body: {
        source: { sourceType: 'ACCOUNT', accountId: usd },
        destination: { destinationType: 'ACCOUNT', accountId: payee.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
      },
    });
    expect((await sdk('GET', `/quotes/${quote.id}`)).id).toBe(quote.id);
    expect((await walk('/quotes', { customerId: payer.id, limit: 1 })).map((q) => q.id)).toEqual([quote.id]);
    expect((await sdk('POST', `/quotes/${quote.id}/execute`)).transactionId).toBe(quote.transactionId);
    expect((await sdk('GET', `/transactions/${quote.transactionId}`)).id).toBe(quote.transactionId);
    await transactionWhen(sys, quote.transactionId, (t) => t.status === 'COMPLETED');
    expect((await walk('/transactions', { customerId: payer.id, limit: 1 })).map((t) => t.id)).toContain(
      quote.transactionId,
    );

    const bank = await sdk('POST', '/customers/external-accounts', {
      body: externalAccountBody('USD_ACCOUNT', { customerId: payer.id }),
    });
    expect(
      (await sdk('POST', '/transfer-out', {
        body: { source: { accountId: usd }, destination: { accountId: bank.id, paymentRail: 'ACH' }, amount: 100 },
      })).type,
    ).toBe('OUTGOING');
    expect(
      (await sdk('POST', '/transfer-in', {
        body: { source: { accountId: bank.id }, destination: { accountId: usd }, amount: 100 },
      })).type,
    ).toBe('INCOMING');
    expect((await sdk('GET', '/exchange-rates', { query: { sourceCurrency: 'USD' } })).data.length).toBeGreaterThan(0);
  },
);

test('API tokens: create, retrieve, list (walked), delete with Accept */*', async () => {
  const created = await sdk('POST', '/tokens', { body: { name: 'SDK read-only', permissions: ['VIEW'] } });
  expect(created).toMatchObject({ name: 'SDK read-only', permissions: ['VIEW'], clientSecret: expect.any(String) });
  expect((await sdk('GET', `/tokens/${created.id}`)).clientSecret).toBeUndefined();
  expect((await walk('/tokens', { limit: 1, name: 'SDK read-only' })).map((t) => t.id)).toEqual([created.id]);
  expect(await sdk('DELETE', `/tokens/${created.id}`, { headers: { Accept: '*/*' } })).toBeUndefined();
});

test('invitations: create, retrieve, claim, cancel (POST, no body); UMA providers walked page by page', async () => {
  const receiver = await startWebhookReceiver({
    publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem,
  });
  try {
    await sdk('PATCH', '/config', { body: { webhookEndpoint: receiver.url } });
    const inviter = await sdk('POST', '/customers', {
      body: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'sdk-inviter' },
    });
    const first = await sdk('POST', '/invitations', {
      body: {
        inviterUma: inviter.umaAddress,
        firstName: 'Alice',
        amountToSend: 12_550,
        expiresAt: '2099-09-01T14:30:00Z',
      },
    });
    expect((await sdk('GET', `/invitations/${first.code}`)).status).toBe('PENDING');
    expect(
      (await sdk('POST', `/invitations/${first.code}/claim`, { body: { inviteeUma: '$invitee@uma.example' } })).status,
    ).toBe('CLAIMED');
    const second = await sdk('POST', '/invitations', { body: { inviterUma: inviter.umaAddress } });
    expect((await sdk('POST', `/invitations/${second.code}/cancel`)).status).toBe('CANCELLED');
  } finally {
    await receiver.close();
  }
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await sdk('GET', '/uma-providers', {
      query: {
        limit: 2,
        countryCode: 'US',
        hasBlockedProviders: true,
        sortOrder: 'asc',
        ...(cursor ? { cursor } : {}),
      },
    });
    names.push(...page.data.map((p: { name: string }) => p.name));
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  expect(names).toEqual(['Grid Sandbox', 'Sandbox Blocked VASP']);
});

test('errors reach the SDK as its error classes expect: the envelope, and request-id for err.requestID', async () => {
  const res = await sys.api('/quotes/Quote:00000000-0000-4000-8000-000000000000', { headers: SDK_HEADERS });
  expect(res.status).toBe(404);
  expect(res.body).toMatchObject({ status: 404, code: 'QUOTE_NOT_FOUND', message: expect.any(String) });
  expect(res.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
});

test("customers.getKYCLink: GET /customers/kyc-link with the SDK's query answers the hosted link", async () => {
  const customer = await sdk('POST', '/customers', { body: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'sdk-kyc' } });
  const link = await sdk('GET', '/customers/kyc-link', {
    query: { platformCustomerId: 'sdk-kyc', redirectUri: 'https://app.example.com/done' },
  });
  expect(link).toMatchObject({
    customerId: customer.id,
    platformCustomerId: 'sdk-kyc',
    kycUrl: expect.stringMatching(/^https?:\/\//),
  });
});
