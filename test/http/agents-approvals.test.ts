import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { agentCustomer, asAgent, connectedAgent, policy, quoteBody, transferOut } from './agent-fixtures';
import { balanceOf, expectError, expectQuoteConflict, FAST_SETTLEMENT, transactionWhen } from './payments-fixtures';

let sys: TestSystem;
let receiver: WebhookReceiver;
beforeAll(async () => {
  sys = await startTestSystem({ env: { ...FAST_SETTLEMENT, WEBHOOK_POLL_INTERVAL_MS: '20' } });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
});
afterAll(async () => {
  await receiver.close();
  await sys.stop();
});

/** Payments above 100.00 USD wait for the platform. */
const thresholdPolicy = () => policy({ approvalThresholds: { currency: 'USD', amount: 10_000 } });

async function pendingQuote(
  c: Awaited<ReturnType<typeof agentCustomer>>,
  me: ReturnType<typeof asAgent>,
  amount = 20_000,
) {
  const quote = await me('/agents/me/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, amount) });
  expect(quote.status).toBe(201);
  const action = await me(`/agents/me/quotes/${quote.body.id}/execute`, { method: 'POST' });
  expect(action.status).toBe(200);
  return { quote: quote.body, action: action.body };
}

test('above the threshold: PENDING_APPROVAL with a webhook, transaction pending; approved, settles once', async () => {
  const c = await agentCustomer(sys);
  const { agentId, bearer } = await connectedAgent(sys, c.customerId, thresholdPolicy());
  const me = asAgent(sys, bearer);

  // Below the threshold: executed at once.
  const small = await pendingQuote(c, me, 5_000);
  expect(small.action.status).toBe('APPROVED');

  const { quote, action } = await pendingQuote(c, me);
  expect(action).toMatchObject({ status: 'PENDING_APPROVAL', type: 'EXECUTE_QUOTE', agentId, quote: { id: quote.id } });
  expect(action.transaction).toBeUndefined();
  expect((await sys.api(`/transactions/${quote.transactionId}`)).body.status).toBe('PENDING');
  await receiver.waitFor(() =>
    receiver.accepted.some((w) => w.type === 'AGENT_ACTION.PENDING_APPROVAL' && w.data.id === action.id)
  );
  const webhook = receiver.accepted.find((w) => w.data.id === action.id)!;
  expect(webhook.data).toMatchObject({
    status: 'PENDING_APPROVAL',
    agentId,
    customerId: c.customerId,
    quote: { id: quote.id },
  });

  const approvals = await sys.api(`/agents/approvals?agentId=${agentId}`);
  expect(approvals.body.data.map((a: { id: string }) => a.id)).toEqual([action.id]);
  expect((await sys.api(`/agents/approvals?customerId=${c.customerId}`)).body.data.map((a: { id: string }) => a.id))
    .toEqual([action.id]);
  expect((await sys.api('/agents/approvals?customerId=Customer:00000000-0000-4000-8000-000000000000')).body.data)
    .toEqual([]);
  // Pending spend counts against the limits already.
  expect((await me('/agents/me')).body.usage.dailySpend).toBe(
    small.quote.totalSendingAmount + quote.totalSendingAmount,
  );

  const approved = await sys.api(`/agents/${agentId}/actions/${action.id}/approve`, { method: 'POST' });
  expect(approved.status).toBe(200);
  expect(approved.body).toMatchObject({ status: 'APPROVED', transaction: { id: quote.transactionId } });
  expectError(await sys.api(`/agents/${agentId}/actions/${action.id}/approve`, { method: 'POST' }), 409, 'CONFLICT');
  expectError(await sys.api(`/agents/${agentId}/actions/${action.id}/reject`, { method: 'POST' }), 409, 'CONFLICT');
  await transactionWhen(sys, quote.transactionId, (t) => t.status === 'COMPLETED');
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(
    1_000_000 - small.quote.totalSendingAmount - quote.totalSendingAmount,
  );
  expect((await me(`/agents/me/actions/${action.id}`)).body.status).toBe('APPROVED');
  expect((await sys.api(`/agents/approvals?agentId=${agentId}`)).body.data).toEqual([]);
});

test('rejected: nothing executes, the reason is kept, the spend is given back', async () => {
  const c = await agentCustomer(sys);
  const { agentId, bearer } = await connectedAgent(
    sys,
    c.customerId,
    policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }),
  );
  const me = asAgent(sys, bearer);
  const out = await me('/agents/me/transfer-out', {
    method: 'POST',
    json: transferOut(c.usdAccountId, c.usdBank, 3_000),
  });
  expect(out.status).toBe(201);
  expect(out.body).toMatchObject({
    status: 'PENDING_APPROVAL',
    type: 'TRANSFER_OUT',
    customerId: c.customerId,
    platformCustomerId: c.customer.platformCustomerId,
    transferDetails: {
      amount: 3_000,
      currency: 'USD',
      sourceAccountId: c.usdAccountId,
      destinationAccountId: c.usdBank,
    },
  });
  expect((await me('/agents/me')).body.usage).toMatchObject({ dailySpend: 3_000, dailyTransactionCount: 1 });
  const rejected = await sys.api(`/agents/${agentId}/actions/${out.body.id}/reject`, {
    method: 'POST',
    json: { reason: 'Not this month' },
  });
  expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'Not this month' });
  expect(rejected.body.transaction).toBeUndefined();
  expectError(await sys.api(`/agents/${agentId}/actions/${out.body.id}/approve`, { method: 'POST' }), 409, 'CONFLICT');
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000);
  expect((await me('/agents/me')).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
  expect((await sys.api(`/customers/external-accounts/${c.usdBank}`)).status).toBe(200);
  expect((await me('/agents/me/transactions')).body.data).toEqual([]);
});

test('an approved transfer is made exactly once', async () => {
  const c = await agentCustomer(sys);
  const { agentId, bearer } = await connectedAgent(
    sys,
    c.customerId,
    policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }),
  );
  const me = asAgent(sys, bearer);
  const out = await me('/agents/me/transfer-out', {
    method: 'POST',
    json: transferOut(c.usdAccountId, c.usdBank, 2_500),
  });
  const results = await Promise.all(
    Array.from({ length: 8 }, () => sys.api(`/agents/${agentId}/actions/${out.body.id}/approve`, { method: 'POST' })),
  );
  expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000 - 2_500);
  const transactions = (await me('/agents/me/transactions')).body.data;
  expect(transactions).toHaveLength(1);
  expect(transactions[0].agentId).toBe(agentId);
  expect((await me(`/agents/me/actions/${out.body.id}`)).body.transaction.id).toBe(transactions[0].id);
});

test('concurrent approve and reject: exactly one wins', async () => {
  const c = await agentCustomer(sys);
  const { agentId, bearer } = await connectedAgent(sys, c.customerId, thresholdPolicy());
  const me = asAgent(sys, bearer);
  for (let round = 0; round < 4; round++) {
    const { action } = await pendingQuote(c, me);
    const results = await Promise.all([
      sys.api(`/agents/${agentId}/actions/${action.id}/approve`, { method: 'POST' }),
      sys.api(`/agents/${agentId}/actions/${action.id}/reject`, { method: 'POST' }),
      sys.api(`/agents/${agentId}/actions/${action.id}/approve`, { method: 'POST' }),
      sys.api(`/agents/${agentId}/actions/${action.id}/reject`, { method: 'POST' }),
    ]);
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    const final = (await me(`/agents/me/actions/${action.id}`)).body;
    expect(final.status).toBe(winners[0].body.status);
    const tx = (await sys.api(`/transactions/${action.quote.transactionId}`)).body;
    expect(tx.status === 'PENDING').toBe(final.status === 'REJECTED');
  }
});

test('POST /transactions/{id}/approve on an agent transaction waiting for approval approves the action', async () => {
  const c = await agentCustomer(sys);
  const { agentId, bearer } = await connectedAgent(sys, c.customerId, thresholdPolicy());
  const me = asAgent(sys, bearer);
  const { quote, action } = await pendingQuote(c, me);
  const approved = await sys.api(`/transactions/${quote.transactionId}/approve`, { method: 'POST' });
  expect(approved.status).toBe(200);
  expect(approved.body.id).toBe(quote.transactionId);
  expect(approved.body.status).not.toBe('PENDING');
  expect((await sys.api(`/agents/approvals?agentId=${agentId}`)).body.data).toEqual([]);
  expect((await me(`/agents/me/actions/${action.id}`)).body).toMatchObject({
    status: 'APPROVED',
    transaction: { id: quote.transactionId },
  });
  expectError(
    await sys.api(`/transactions/${quote.transactionId}/approve`, { method: 'POST' }),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );

  const second = await pendingQuote(c, me);
  expect((await sys.api(`/transactions/${second.quote.transactionId}/reject`, { method: 'POST' })).status).toBe(200);
  expect((await me(`/agents/me/actions/${second.action.id}`)).body.status).toBe('REJECTED');
});

test('an agent cannot submit a quote twice; another agent cannot see or execute it', async () => {
  const c = await agentCustomer(sys);
  const first = asAgent(sys, (await connectedAgent(sys, c.customerId, thresholdPolicy())).bearer);
  const second = asAgent(sys, (await connectedAgent(sys, c.customerId)).bearer);
  const { quote } = await pendingQuote(c, first);
  expectQuoteConflict(
    await first(`/agents/me/quotes/${quote.id}/execute`, { method: 'POST' }),
    'QUOTE_ALREADY_EXECUTED',
  );
  expectError(await second(`/agents/me/quotes/${quote.id}`), 404, 'QUOTE_NOT_FOUND');
  expectError(await second(`/agents/me/quotes/${quote.id}/execute`, { method: 'POST' }), 404, 'QUOTE_NOT_FOUND');
  expect((await first('/agents/me')).body.usage.dailyTransactionCount).toBe(1);
});

test('a quote waiting for approval cannot be paid another way meanwhile, even once the policy turns AUTO', async () => {
  const c = await agentCustomer(sys);
  const { agentId, bearer } = await connectedAgent(sys, c.customerId, thresholdPolicy());
  const me = asAgent(sys, bearer);
  const { quote, action } = await pendingQuote(c, me);
  expect(
    (await sys.api(`/agents/${agentId}/policy`, {
      method: 'PATCH',
      json: { approvalThresholds: { currency: 'USD', amount: null } },
    })).status,
  ).toBe(200);
  expectQuoteConflict(await me(`/agents/me/quotes/${quote.id}/execute`, { method: 'POST' }), 'QUOTE_ALREADY_EXECUTED');
  expect((await sys.api(`/transactions/${quote.transactionId}`)).body.status).toBe('PENDING');
  expect((await me('/agents/me')).body.usage.dailyTransactionCount).toBe(1);
  expect((await sys.api(`/agents/${agentId}/actions/${action.id}/approve`, { method: 'POST' })).body.status).toBe(
    'APPROVED',
  );
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000 - quote.totalSendingAmount);
});

test('deleting an agent revokes what it asked for: approving its waiting action rejects it, pays nothing', async () => {
  const c = await agentCustomer(sys);
  const { agentId, bearer } = await connectedAgent(
    sys,
    c.customerId,
    policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }),
  );
  const me = asAgent(sys, bearer);
  const out = await me('/agents/me/transfer-out', {
    method: 'POST',
    json: transferOut(c.usdAccountId, c.usdBank, 4_000),
  });
  expect(out.body.status).toBe('PENDING_APPROVAL');
  expect((await sys.api(`/agents/approvals?customerId=${c.customerId}`)).body.data.map((a: { id: string }) => a.id))
    .toEqual([out.body.id]);
  expect((await sys.api(`/agents/${agentId}`, { method: 'DELETE' })).status).toBe(204);
  expect((await sys.api(`/agents/approvals?customerId=${c.customerId}`)).body.data).toEqual([]);

  expectError(await sys.api(`/agents/${agentId}/actions/${out.body.id}/approve`, { method: 'POST' }), 409, 'CONFLICT');
  expectError(await sys.api(`/agents/${agentId}/actions/${out.body.id}/approve`, { method: 'POST' }), 409, 'CONFLICT');
  expect(await balanceOf(sys, c.customerId, c.usdAccountId)).toBe(1_000_000);
  expect((await sys.api(`/agents/approvals?customerId=${c.customerId}`)).body.data).toEqual([]);
});
