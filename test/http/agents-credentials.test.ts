import { startTestSystem, type TestSystem } from '../system-harness';
import { agentCustomer, asAgent, connectedAgent, policy, quoteBody } from './agent-fixtures';
import { balanceOf, expectError, FAST_SETTLEMENT } from './payments-fixtures';

let sys: TestSystem;
// Device codes live 1 s and quotes 1 s here, so expiry can be watched.
beforeAll(async () => {
  sys = await startTestSystem({
    env: { ...FAST_SETTLEMENT, AGENT_DEVICE_CODE_TTL_SECONDS: '1', QUOTE_VALIDITY_SECONDS: '1' },
  });
});
afterAll(async () => {
  await sys.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newAgent(customerId: string, agentPolicy = policy()) {
  const created = await sys.api('/agents', {
    method: 'POST',
    json: { name: 'Agent', customerId, policy: agentPolicy },
  });
  expect(created.status).toBe(201);
  return { agentId: created.body.agent.id as string, code: created.body.deviceCode.code as string };
}

const redeem = (code: string) =>
  sys.api(`/agents/device-codes/${encodeURIComponent(code)}/redeem`, { method: 'POST', auth: false });

test('30 concurrent redemptions of one code: exactly one token', async () => {
  const c = await agentCustomer(sys, 0);
  const { code } = await newAgent(c.customerId);
  const results = await Promise.all(Array.from({ length: 30 }, () => redeem(code)));
  const winners = results.filter((r) => r.status === 200);
  expect(winners).toHaveLength(1);
  expect(results.filter((r) => r.status === 400).every((r) => r.body.code === 'INVALID_INPUT')).toBe(true);
  expect((await asAgent(sys, `Bearer ${winners[0].body.accessToken}`)('/agents/me')).status).toBe(200);
});

test('a device code expires; a new one replaces older unredeemed ones; a connected agent gets no new one', async () => {
  const c = await agentCustomer(sys, 0);
  const { agentId, code } = await newAgent(c.customerId);
  await sleep(1_100);
  const expired = await redeem(code);
  expectError(expired, 400, 'INVALID_INPUT');
  expect(expired.body.details).toEqual({ reason: 'DEVICE_CODE_EXPIRED' });

  const first = await sys.api(`/agents/${agentId}/device-codes`, { method: 'POST' });
  const second = await sys.api(`/agents/${agentId}/device-codes`, { method: 'POST' });
  expect(first.status).toBe(201);
  expect(second.body).toMatchObject({ agentId, redeemed: false });
  expect(second.body.code).not.toBe(first.body.code);
  const replaced = await redeem(first.body.code);
  expectError(replaced, 400, 'INVALID_INPUT');
  expect(replaced.body.details).toEqual({ reason: 'DEVICE_CODE_REPLACED' });
  expect((await redeem(second.body.code)).status).toBe(200);
  expectError(await sys.api(`/agents/${agentId}/device-codes`, { method: 'POST' }), 409, 'CONFLICT');
  expectError(await redeem('GRID-AGENT-2222-2222-2222'), 404, 'REFERENCE_NOT_FOUND');
  expectError(await sys.api('/agents/device-codes/GRID-AGENT-2222-2222-2222/status'), 404, 'REFERENCE_NOT_FOUND');
  const other = await sys.createPlatform();
  expectError(
    await sys.api(`/agents/device-codes/${second.body.code}/status`, { auth: other.auth }),
    404,
    'REFERENCE_NOT_FOUND',
  );
});

test('tokens only work on agent routes, platform credentials only on platform routes', async () => {
  const c = await agentCustomer(sys, 0);
  const { bearer, agentId } = await connectedAgent(sys, c.customerId);
  expectError(await sys.api('/customers', { auth: bearer }), 401, 'UNAUTHORIZED');
  expectError(await sys.api(`/agents/${agentId}`, { auth: bearer }), 401, 'UNAUTHORIZED');
  expectError(await sys.api('/agents', { auth: bearer }), 401, 'UNAUTHORIZED');
  expectError(await sys.api('/agents/me'), 401, 'UNAUTHORIZED');
  expectError(await sys.api('/agents/me/transactions'), 401, 'UNAUTHORIZED');
  expectError(await sys.api('/agents/me', { auth: false }), 401, 'UNAUTHORIZED');
  expectError(
    await sys.api('/agents/me', {
      auth: 'Bearer gat_0000000000000000000000000000000000000000000000000000000000000000',
    }),
    401,
    'UNAUTHORIZED',
  );
  expectError(await sys.api('/agents/me', { auth: `${bearer}x` }), 401, 'UNAUTHORIZED');
  expect((await sys.api('/agents/me', { auth: bearer })).status).toBe(200);
});

test('approval after the quote expired: the action FAILS and nothing is paid', async () => {
  const c = await agentCustomer(sys);
  const { agentId, bearer } = await connectedAgent(
    sys,
    c.customerId,
    policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }),
  );
  const me = asAgent(sys, bearer);
  const quote = await me('/agents/me/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 5_000) });
  const action = await me(`/agents/me/quotes/${quote.body.id}/execute`, { method: 'POST' });
  expect(action.body.status).toBe('PENDING_APPROVAL');
  await sleep(1_100);
  const approved = await sys.api(`/agents/${agentId}/actions/${action.body.id}/approve`, { method: 'POST' });
  expect(approved.status).toBe(200);
  expect(approved.body.status).toBe('FAILED');
  expect(approved.body.transaction).toBeUndefined();
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000);
  expect((await me('/agents/me')).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
  expectError(
    await sys.api(`/agents/${agentId}/actions/${action.body.id}/approve`, { method: 'POST' }),
    409,
    'CONFLICT',
  );
});

test('guessing device codes or tokens is throttled per client address', async () => {
  const guarded = await startTestSystem({ env: { GATEWAY_AUTH_FAILURES_PER_TOKEN: '5' } });
  try {
    const guess = (i: number) =>
      guarded.api(`/agents/device-codes/GRID-AGENT-${String(i).padStart(4, '3')}-3333-3333/redeem`, {
        method: 'POST',
        auth: false,
      });
    const guesses = [];
    for (let i = 0; i < 5; i++) guesses.push(await guess(i));
    expect(guesses.every((r) => r.status === 404)).toBe(true);
    expectError(await guess(5), 429, 'RATE_LIMITED');
    expectError(await guarded.api('/agents/me', { auth: 'Bearer gat_guess' }), 429, 'RATE_LIMITED');
  } finally {
    await guarded.stop();
  }
});

test("our OpenAPI document names each agent operation's scheme", async () => {
  const document = await (await fetch(`${sys.rootUrl}/openapi.json`)).json() as {
    paths: Record<string, Record<string, { security?: unknown }>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  expect(document.components.securitySchemes.agentAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  expect(document.paths['/agents/me'].get.security).toEqual([{ agentAuth: [] }]);
  expect(document.paths['/agents/me/quotes/{quoteId}/execute'].post.security).toEqual([{ agentAuth: [] }]);
  expect(document.paths['/agents/device-codes/{code}/redeem'].post.security).toEqual([]);
  expect(document.paths['/agents/{agentId}'].get.security).toBeUndefined(); // the document's default: Basic
});
