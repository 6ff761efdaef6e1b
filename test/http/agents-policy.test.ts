import { externalAccountBody } from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';
import {
  agentCustomer,
  ALL_PERMISSIONS,
  asAgent,
  connectedAgent,
  policy,
  quoteBody,
  transferOut,
} from './agent-fixtures';
import { balanceOf, expectError, FAST_SETTLEMENT } from './payments-fixtures';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(async () => {
  await sys.stop();
});

const without = (permission: string) => policy({ permissions: ALL_PERMISSIONS.filter((p) => p !== permission) });

test.each([
  ['VIEW_TRANSACTIONS', (_c: any, me: any) => me('/agents/me/transactions')],
  [
    'VIEW_TRANSACTIONS',
    (_c: any, me: any) => me('/agents/me/transactions/Transaction:00000000-0000-4000-8000-000000000000'),
  ],
  [
    'CREATE_QUOTES',
    (c: any, me: any) =>
      me('/agents/me/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 1_000) }),
  ],
  [
    'CREATE_TRANSFERS',
    (c: any, me: any) =>
      me('/agents/me/transfer-out', { method: 'POST', json: transferOut(c.usdAccountId, c.usdBank, 1_000) }),
  ],
  [
    'CREATE_TRANSFERS',
    (c: any, me: any) =>
      me('/agents/me/transfer-in', {
        method: 'POST',
        json: { source: { accountId: c.usdBank }, destination: { accountId: c.usdAccountId }, amount: 1_000 },
      }),
  ],
  ['MANAGE_EXTERNAL_ACCOUNTS', (_c: any, me: any) => me('/agents/me/external-accounts')],
  ['MANAGE_EXTERNAL_ACCOUNTS', (c: any, me: any) => me(`/agents/me/external-accounts/${c.usdBank}`)],
  [
    'MANAGE_EXTERNAL_ACCOUNTS',
    (c: any, me: any) => me(`/agents/me/external-accounts/${c.usdBank}`, { method: 'DELETE' }),
  ],
  [
    'MANAGE_EXTERNAL_ACCOUNTS',
    (_c: any, me: any) =>
      me('/agents/me/external-accounts', { method: 'POST', json: externalAccountBody('GBP_ACCOUNT') }),
  ],
])('without %s: 403 FORBIDDEN', async (permission, call) => {
  const c = await agentCustomer(sys);
  const me = asAgent(sys, (await connectedAgent(sys, c.customerId, without(permission))).bearer);
  const res = await call(c, me);
  expectError(res, 403, 'FORBIDDEN');
  expect(res.body.details).toEqual({ permission });
  expect((await sys.api(`/customers/external-accounts/${c.usdBank}`)).status).toBe(200);
});

test('without EXECUTE_QUOTES: the quote is made, its execution refused', async () => {
  const c = await agentCustomer(sys);
  const me = asAgent(sys, (await connectedAgent(sys, c.customerId, without('EXECUTE_QUOTES'))).bearer);
  const quote = await me('/agents/me/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 1_000) });
  expect(quote.status).toBe(201);
  expectError(await me(`/agents/me/quotes/${quote.body.id}/execute`, { method: 'POST' }), 403, 'FORBIDDEN');
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000);
});

test('spending limits: per transaction, per account rule, per day (amount and count), per month', async () => {
  const c = await agentCustomer(sys);
  const cases: Array<[Record<string, unknown>, string, number]> = [
    [{ spendingLimits: { currency: 'USD', perTransactionLimit: 999 } }, 'perTransactionLimit', 1_000],
    [
      { accountRestrictions: { accountRules: [{ accountId: c.usdAccountId, perTransactionLimit: 500 }] } },
      'perTransactionLimit',
      600,
    ],
    [{ spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 1_500 } }, 'dailyLimit', 1_000],
    [
      { spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyTransactionLimit: 1 } },
      'dailyTransactionLimit',
      100,
    ],
    [{ spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, monthlyLimit: 1_500 } }, 'monthlyLimit', 1_000],
  ];
  for (const [changes, limit, amount] of cases) {
    const me = asAgent(sys, (await connectedAgent(sys, c.customerId, policy(changes))).bearer);
    const attempts = [];
    for (let i = 0; i < 2; i++) {
      attempts.push(
        await me('/agents/me/transfer-out', { method: 'POST', json: transferOut(c.usdAccountId, c.usdBank, amount) }),
      );
    }
    const refused = attempts.find((r) => r.status === 403)!;
    expect({ limit, refused: refused?.body.code, details: refused?.body.details?.limit }).toEqual({
      limit,
      refused: 'VELOCITY_LIMIT_EXCEEDED',
      details: limit,
    });
  }
});

test('a limit in another currency counts the converted amount; the usage is exact', async () => {
  const c = await agentCustomer(sys);
  // 172.50 MXN = 10.00 USD at the sandbox rate.
  const me = asAgent(
    sys,
    (await connectedAgent(
      sys,
      c.customerId,
      policy({ spendingLimits: { currency: 'MXN', perTransactionLimit: 17_250, dailyLimit: 30_000 } }),
    )).bearer,
  );
  const ok = await me('/agents/me/transfer-out', {
    method: 'POST',
    json: transferOut(c.usdAccountId, c.usdBank, 1_000),
  });
  expect(ok.status).toBe(201);
  expect((await me('/agents/me')).body.usage).toMatchObject({
    dailySpend: 17_250,
    monthlySpend: 17_250,
    dailyTransactionCount: 1,
  });
  expectError(
    await me('/agents/me/transfer-out', { method: 'POST', json: transferOut(c.usdAccountId, c.usdBank, 1_001) }),
    403,
    'VELOCITY_LIMIT_EXCEEDED',
  );
  expectError(
    await me('/agents/me/transfer-out', { method: 'POST', json: transferOut(c.usdAccountId, c.usdBank, 800) }),
    403,
    'VELOCITY_LIMIT_EXCEEDED',
  );
  expect((await me('/agents/me')).body.usage).toMatchObject({ dailySpend: 17_250, dailyTransactionCount: 1 });
});

test('allowedAccountIds: another internal account of the customer is refused', async () => {
  const c = await agentCustomer(sys);
  const me = asAgent(
    sys,
    (await connectedAgent(
      sys,
      c.customerId,
      policy({ accountRestrictions: { allowedAccountIds: ['InternalAccount:00000000-0000-4000-8000-000000000000'] } }),
    )).bearer,
  );
  expectError(
    await me('/agents/me/transfer-out', { method: 'POST', json: transferOut(c.usdAccountId, c.usdBank, 100) }),
    403,
    'FORBIDDEN',
  );
  expectError(
    await me('/agents/me/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 100) }),
    403,
    'FORBIDDEN',
  );
});

test('an account rule can require approval for one account', async () => {
  const c = await agentCustomer(sys);
  const me = asAgent(
    sys,
    (await connectedAgent(
      sys,
      c.customerId,
      policy({
        accountRestrictions: { accountRules: [{ accountId: c.usdAccountId, executionMode: 'APPROVAL_REQUIRED' }] },
      }),
    )).bearer,
  );
  expect(
    (await me('/agents/me/transfer-out', { method: 'POST', json: transferOut(c.usdAccountId, c.usdBank, 100) })).body
      .status,
  ).toBe('PENDING_APPROVAL');
});

test('40 concurrent agent payments never pass the daily limit; usage counts exactly the accepted ones', async () => {
  const c = await agentCustomer(sys);
  const me = asAgent(
    sys,
    (await connectedAgent(
      sys,
      c.customerId,
      policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 7_000 } }),
    )).bearer,
  );
  const results = await Promise.all(
    Array.from(
      { length: 40 },
      () => me('/agents/me/transfer-out', { method: 'POST', json: transferOut(c.usdAccountId, c.usdBank, 1_000) }),
    ),
  );
  expect(results.filter((r) => r.status === 201)).toHaveLength(7);
  expect(results.filter((r) => r.status === 403).every((r) => r.body.code === 'VELOCITY_LIMIT_EXCEEDED')).toBe(true);
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000 - 7_000);
  expect((await me('/agents/me')).body.usage).toMatchObject({ dailySpend: 7_000, dailyTransactionCount: 7 });
});

test('a repeated Idempotency-Key answers the same action and pays once (while the first runs: 409)', async () => {
  const c = await agentCustomer(sys);
  const me = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
  const send = () =>
    me('/agents/me/transfer-out', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'pay-rent-1' },
      json: transferOut(c.usdAccountId, c.usdBank, 1_200),
    });
  const results = await Promise.all([send(), send(), send()]);
  const created = results.filter((r) => r.status === 201);
  expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
  expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
  expect((await send()).body.id).toBe(created[0].body.id);
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000 - 1_200);
  expect((await me('/agents/me')).body.usage.dailyTransactionCount).toBe(1);
});

test("another customer's records answer exactly like missing ones", async () => {
  const mine = await agentCustomer(sys);
  const theirs = await agentCustomer(sys);
  const me = asAgent(sys, (await connectedAgent(sys, mine.customerId)).bearer);
  const theirQuote = await sys.api('/quotes', {
    method: 'POST',
    json: quoteBody(theirs.usdAccountId, theirs.mxnPayee, 1_000),
  });
  const missing = 'Transaction:00000000-0000-4000-8000-000000000000';
  const [foreign, absent] = await Promise.all([
    me(`/agents/me/transactions/${theirQuote.body.transactionId}`),
    me(`/agents/me/transactions/${missing}`),
  ]);
  expect({ status: foreign.status, code: foreign.body.code }).toEqual({
    status: absent.status,
    code: absent.body.code,
  });
  expectError(foreign, 404, 'TRANSACTION_NOT_FOUND');
  expectError(await me(`/agents/me/quotes/${theirQuote.body.id}`), 404, 'QUOTE_NOT_FOUND');
  expectError(
    await me('/agents/me/quotes', { method: 'POST', json: quoteBody(theirs.usdAccountId, mine.mxnPayee, 1_000) }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(
    await me('/agents/me/quotes', { method: 'POST', json: quoteBody(mine.usdAccountId, theirs.mxnPayee, 1_000) }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(
    await me('/agents/me/transfer-out', {
      method: 'POST',
      json: transferOut(theirs.usdAccountId, theirs.usdBank, 100),
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(
    await me('/agents/me/transfer-out', { method: 'POST', json: transferOut(mine.usdAccountId, theirs.usdBank, 100) }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await me(`/agents/me/external-accounts/${theirs.usdBank}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(
    await me(`/agents/me/external-accounts/${theirs.usdBank}`, { method: 'DELETE' }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expect((await sys.api(`/customers/external-accounts/${theirs.usdBank}`)).status).toBe(200);
  const accounts = (await me('/agents/me/internal-accounts')).body.data.map((a: { id: string }) => a.id);
  expect(accounts).toContain(mine.usdAccountId);
  expect(accounts).not.toContain(theirs.usdAccountId);
  expect(
    (await me('/agents/me/external-accounts')).body.data.every((a: { customerId: string }) =>
      a.customerId === mine.customerId
    ),
  ).toBe(true);
  expect(await balanceOf(sys, theirs.customerId, theirs.usdAccountId)).toBe(1_000_000);
});

test('external accounts through the agent belong to its customer', async () => {
  const c = await agentCustomer(sys, 0);
  const me = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
  const created = await me('/agents/me/external-accounts', {
    method: 'POST',
    json: externalAccountBody('EUR_ACCOUNT'),
  });
  expect(created.status).toBe(201);
  expect(created.body.customerId).toBe(c.customerId);
  expect((await me(`/agents/me/external-accounts/${created.body.id}`)).body.id).toBe(created.body.id);
  expect((await me(`/agents/me/external-accounts/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
  expectError(await me(`/agents/me/external-accounts/${created.body.id}`), 404, 'REFERENCE_NOT_FOUND');
});

test("a transfer in from the customer's bank account: executed at once and counted", async () => {
  const c = await agentCustomer(sys, 0);
  const me = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
  const res = await me('/agents/me/transfer-in', {
    method: 'POST',
    json: { source: { accountId: c.usdBank }, destination: { accountId: c.usdAccountId }, amount: 4_200 },
  });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    status: 'APPROVED',
    type: 'TRANSFER_IN',
    transferDetails: {
      amount: 4_200,
      currency: 'USD',
      sourceAccountId: c.usdBank,
      destinationAccountId: c.usdAccountId,
    },
    transaction: { type: 'INCOMING', sentAmount: { amount: 4_200 } },
  });
  expect((await me('/agents/me')).body.usage).toMatchObject({ dailySpend: 4_200, dailyTransactionCount: 1 });
  expect((await me(`/agents/me/transactions/${res.body.transaction.id}`)).body.id).toBe(res.body.transaction.id);
});

describe('allowedAccountIds limits reads as well as writes', () => {
  test('the agent lists only its allowed accounts, and only payments touching them', async () => {
    const c = await agentCustomer(sys);
    const all = await sys.api(`/customers/internal-accounts?customerId=${c.customerId}&limit=100`);
    const other = all.body.data.find((a: any) => a.id !== c.usdAccountId).id as string;
    const unrestricted = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
    expect(
      (await unrestricted('/agents/me/transfer-out', {
        method: 'POST',
        json: transferOut(c.usdAccountId, c.usdBank, 100),
      })).status,
    ).toBe(201);
    const [payment] = (await unrestricted('/agents/me/transactions')).body.data;
    expect(payment).toBeDefined();

    const toOther = asAgent(
      sys,
      (await connectedAgent(sys, c.customerId, policy({ accountRestrictions: { allowedAccountIds: [other] } }))).bearer,
    );
    expect((await toOther('/agents/me/internal-accounts?limit=100')).body.data.map((a: any) => a.id)).toEqual([other]);
    expect((await toOther('/agents/me/transactions')).body.data).toEqual([]);
    expectError(await toOther(`/agents/me/transactions/${payment.id}`), 404, 'TRANSACTION_NOT_FOUND');

    const toUsd = asAgent(
      sys,
      (await connectedAgent(
        sys,
        c.customerId,
        policy({ accountRestrictions: { allowedAccountIds: [c.usdAccountId] } }),
      )).bearer,
    );
    expect((await toUsd('/agents/me/internal-accounts')).body.data.map((a: any) => a.id)).toEqual([c.usdAccountId]);
    expect((await toUsd('/agents/me/transactions')).body.data.map((t: any) => t.id)).toEqual([payment.id]);
    expect((await toUsd(`/agents/me/transactions/${payment.id}`)).status).toBe(200);

    const none = asAgent(
      sys,
      (await connectedAgent(sys, c.customerId, policy({ accountRestrictions: { allowedAccountIds: [] } }))).bearer,
    );
    expect((await none('/agents/me/internal-accounts')).body.data).toEqual([]);
  });

  test("an agent pays a UMA address from an allowed account, within its policy (the platform's lookup)", async () => {
    const c = await agentCustomer(sys);
    const me = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
    const lookup = await sys.api(
      `/receiver/uma/${encodeURIComponent('$stranger.mxn@uma.example')}?customerId=${c.customerId}`,
    );
    expect(lookup.status).toBe(200);
    const res = await me('/agents/me/quotes', {
      method: 'POST',
      json: {
        source: { sourceType: 'ACCOUNT', accountId: c.usdAccountId },
        lookupId: lookup.body.lookupId,
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$stranger.mxn@uma.example', currency: 'MXN' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 5_000,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$stranger.mxn@uma.example' },
      totalSendingAmount: 5_000,
    });
    expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000);
  });
});
