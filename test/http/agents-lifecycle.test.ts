import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION, createGatewayApp } from '../../gateway/gateway-app';
import { silentLogger } from '../../lib/log';
import { startTestSystem, type TestSystem } from '../system-harness';
import { agentCustomer, asAgent, connectedAgent, policy, quoteBody } from './agent-fixtures';
import { balanceOf, expectError, FAST_SETTLEMENT, transactionWhen } from './payments-fixtures';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(async () => {
  await sys.stop();
});

test('create, redeem, pay within limits, pause, resume, delete', async () => {
  const c = await agentCustomer(sys);
  const created = await sys.api('/agents', {
    method: 'POST',
    json: { name: 'Payroll agent', customerId: c.customerId, policy: policy() },
  });
  expect(created.status).toBe(201);
  const { agent, deviceCode } = created.body;
  expect(agent).toMatchObject({
    name: 'Payroll agent',
    customerId: c.customerId,
    isPaused: false,
    isConnected: false,
    usage: { dailySpend: 0, dailyTransactionCount: 0, monthlySpend: 0 },
  });
  expect(deviceCode.code).toMatch(/^GRID-AGENT-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
  expect(deviceCode).toMatchObject({ agentId: agent.id, redeemed: false });
  expect((await sys.api(`/agents/device-codes/${deviceCode.code}/status`)).body).toEqual({
    code: deviceCode.code,
    redeemed: false,
  });

  // The code is the proof: no credentials, and typed in lower case with spaces it is the same code.
  const typed = deviceCode.code.toLowerCase().replace(/-/g, ' ');
  const redeemed = await sys.api(`/agents/device-codes/${encodeURIComponent(typed)}/redeem`, {
    method: 'POST',
    auth: false,
  });
  expect(redeemed.status).toBe(200);
  expect(redeemed.body).toMatchObject({
    agentId: agent.id,
    agentName: 'Payroll agent',
    policy: { defaultExecutionMode: 'AUTO' },
  });
  expect(redeemed.body.accessToken).toMatch(/^gat_[0-9a-f]{64}$/);
  expect((await sys.api(`/agents/device-codes/${deviceCode.code}/status`)).body.redeemed).toBe(true);
  expectError(
    await sys.api(`/agents/device-codes/${deviceCode.code}/redeem`, { method: 'POST', auth: false }),
    400,
    'INVALID_INPUT',
  );
  const me = asAgent(sys, `Bearer ${redeemed.body.accessToken}`);

  const profile = await me('/agents/me');
  expect(profile.status).toBe(200);
  expect(profile.body).toMatchObject({ id: agent.id, isConnected: true, policy: policy() });

  const accounts = await me('/agents/me/internal-accounts');
  expect(accounts.body.data.map((a: { id: string }) => a.id)).toContain(c.usdAccountId);

  const quote = await me('/agents/me/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 10_000) });
  expect(quote.status).toBe(201);
  expect((await me(`/agents/me/quotes/${quote.body.id}`)).body.id).toBe(quote.body.id);
  const action = await me(`/agents/me/quotes/${quote.body.id}/execute`, { method: 'POST' });
  expect(action.status).toBe(200);
  expect(action.body).toMatchObject({
    agentId: agent.id,
    customerId: c.customerId,
    status: 'APPROVED',
    type: 'EXECUTE_QUOTE',
    quote: { id: quote.body.id },
  });
  expect(action.body.transaction).toMatchObject({ id: quote.body.transactionId, agentId: agent.id });
  await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000 - quote.body.totalSendingAmount);

  const usage = (await me('/agents/me')).body.usage;
  expect(usage).toMatchObject({
    dailyTransactionCount: 1,
    dailySpend: quote.body.totalSendingAmount,
    monthlySpend: quote.body.totalSendingAmount,
  });
  expect((await me('/agents/me/transactions')).body.data.map((t: { id: string }) => t.id)).toContain(
    quote.body.transactionId,
  );
  expect((await me(`/agents/me/transactions/${quote.body.transactionId}`)).body.id).toBe(quote.body.transactionId);
  expect((await me('/agents/me/actions')).body.data.map((a: { id: string }) => a.id)).toEqual([action.body.id]);
  expect((await me(`/agents/me/actions/${action.body.id}`)).body.status).toBe('APPROVED');

  // Paused: refused on the very next request (it may still read its own profile).
  expect((await sys.api(`/agents/${agent.id}`, { method: 'PATCH', json: { isPaused: true } })).body.isPaused).toBe(
    true,
  );
  expectError(
    await me('/agents/me/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 1_000) }),
    401,
    'UNAUTHORIZED',
  );
  expectError(await me('/agents/me/transactions'), 401, 'UNAUTHORIZED');
  expect((await me('/agents/me')).body.isPaused).toBe(true);
  expect((await sys.api(`/agents?isPaused=true&customerId=${c.customerId}`)).body.data.map((a: { id: string }) => a.id))
    .toEqual([agent.id]);

  expect((await sys.api(`/agents/${agent.id}`, { method: 'PATCH', json: { isPaused: false, name: 'Renamed' } })).body)
    .toMatchObject({ isPaused: false, name: 'Renamed' });
  expect((await me('/agents/me/transactions')).status).toBe(200);

  // Deleted: its token is refused at once, and the agent is gone.
  expect((await sys.api(`/agents/${agent.id}`, { method: 'DELETE' })).status).toBe(204);
  expectError(await me('/agents/me'), 401, 'UNAUTHORIZED');
  expectError(await sys.api(`/agents/${agent.id}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(await sys.api(`/agents/${agent.id}`, { method: 'DELETE' }), 404, 'REFERENCE_NOT_FOUND');
});

test('the platform lists, reads and pages its agents; another platform sees none of them', async () => {
  const c = await agentCustomer(sys, 0);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    ids.push(
      (await sys.api('/agents', {
        method: 'POST',
        json: { name: `Agent ${i}`, customerId: c.customerId, policy: policy() },
      })).body.agent.id,
    );
  }
  const first = await sys.api(`/agents?customerId=${c.customerId}&limit=2`);
  expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
  const second = await sys.api(`/agents?customerId=${c.customerId}&limit=2&cursor=${first.body.nextCursor}`);
  expect([...first.body.data, ...second.body.data].map((a: { id: string }) => a.id)).toEqual(ids);
  expect((await sys.api(`/agents?customerId=${c.customerId}&isConnected=true`)).body.data).toEqual([]);

  const other = await sys.createPlatform();
  expectError(await sys.api(`/agents/${ids[0]}`, { auth: other.auth }), 404, 'REFERENCE_NOT_FOUND');
  expect((await sys.api('/agents', { auth: other.auth })).body.data).toEqual([]);
  expectError(
    await sys.api('/agents', {
      method: 'POST',
      auth: other.auth,
      json: { name: 'x', customerId: c.customerId, policy: policy() },
    }),
    400,
    'INVALID_INPUT',
  );
});

test('invalid agents and policies list every invalid member', async () => {
  const c = await agentCustomer(sys, 0);
  const bad = await sys.api('/agents', {
    method: 'POST',
    json: {
      name: 'x',
      customerId: c.customerId,
      policy: { permissions: ['FLY'], defaultExecutionMode: 'SOMETIMES', spendingLimits: { currency: 'usd' } },
    },
  });
  expectError(bad, 400, 'INVALID_INPUT');
  const fields = bad.body.details.errors.map((e: { field: string }) => e.field);
  const agent =
    (await sys.api('/agents', { method: 'POST', json: { name: 'x', customerId: c.customerId, policy: policy() } })).body
      .agent.id;
  expectError(await sys.api(`/agents/${agent}`, { method: 'PATCH', json: {} }), 400, 'INVALID_INPUT');
  expectError(await sys.api(`/agents/${agent}`, { method: 'PATCH', json: { name: '  ' } }), 400, 'INVALID_INPUT');
  expect(fields).toEqual(
    expect.arrayContaining([
      'policy.permissions[0]',
      'policy.defaultExecutionMode',
      'policy.spendingLimits.currency',
      'policy.spendingLimits.perTransactionLimit',
    ]),
  );
});

test('a policy change takes effect on the next request; partial changes keep the rest', async () => {
  const c = await agentCustomer(sys);
  const { agentId, bearer } = await connectedAgent(sys, c.customerId);
  const me = asAgent(sys, bearer);
  expect((await me('/agents/me/transactions')).status).toBe(200);
  const changed = await sys.api(`/agents/${agentId}/policy`, {
    method: 'PATCH',
    json: { permissions: ['CREATE_QUOTES'], spendingLimits: { dailyLimit: null } },
  });
  expect(changed.status).toBe(200);
  expect(changed.body.policy).toMatchObject({
    permissions: ['CREATE_QUOTES'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: {
      currency: 'USD',
      perTransactionLimit: 50_000,
      dailyLimit: null,
      dailyTransactionLimit: 100,
      monthlyLimit: 5_000_000,
    },
  });
  expectError(await me('/agents/me/transactions'), 403, 'FORBIDDEN');
  expect((await me('/agents/me')).body.policy.permissions).toEqual(['CREATE_QUOTES']);
  expectError(
    await sys.api(`/agents/Agent:00000000-0000-4000-8000-000000000000/policy`, { method: 'PATCH', json: {} }),
    404,
    'REFERENCE_NOT_FOUND',
  );
});

test('a second gateway replica refuses a paused or deleted agent at once too (no authentication cache)', async () => {
  const replica = createServer(
    createGatewayApp({ peers: sys.system.peers, logger: silentLogger, servicesReady: async () => true }),
  );
  await new Promise<void>((resolve) => replica.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(replica.address() as AddressInfo).port}/${API_VERSION}`;
    const c = await agentCustomer(sys, 0);
    const { agentId, bearer } = await connectedAgent(sys, c.customerId);
    const onReplica = async () =>
      (await fetch(`${base}/agents/me/transactions`, { headers: { authorization: bearer } })).status;
    expect(await onReplica()).toBe(200);
    await sys.api(`/agents/${agentId}`, { method: 'PATCH', json: { isPaused: true } });
    expect(await onReplica()).toBe(401);
    await sys.api(`/agents/${agentId}`, { method: 'PATCH', json: { isPaused: false } });
    expect(await onReplica()).toBe(200);
    await sys.api(`/agents/${agentId}`, { method: 'DELETE' });
    expect(await onReplica()).toBe(401);
  } finally {
    await new Promise<void>((resolve) => replica.close(() => resolve()));
  }
});
