import { startTestSystem, type TestSystem } from '../system-harness';
import { FAST_SETTLEMENT, transactionWhen } from './payments-fixtures';

/**
 * docs/api/agents.md "Agents: delegated, policy-bound access", request for request, after the README's first payment
 * path.
 */
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(async () => {
  await sys.stop();
});

const post = (path: string, json?: unknown, auth?: string | boolean) =>
  sys.api(path, { method: 'POST', json, ...(auth !== undefined ? { auth } : {}) });

test(
  '"Agents": create with a policy, redeem, pay within limits, '
    + 'wait for approval above the threshold, paused refused',
  async () => {
    // The first payment path's sender, its consent and funded USD account.
    const sender = (await post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'sender-1',
      fullName: 'Jane Smith',
      email: 'jane@example.com',
      birthDate: '1990-01-15',
      nationality: 'US',
    })).body.id;
    const terms = (await sys.api('/customers/end-user-terms')).body.version;
    await sys.api(`/customers/${sender}`, {
      method: 'PATCH',
      json: {
        customerType: 'INDIVIDUAL',
        endUserTermsConsent: {
          acceptedAt: '2026-01-01T00:00:00Z',
          ipAddress: '203.0.113.7',
          termsVersion: terms,
          acceptanceMethod: 'CHECKBOX',
        },
      },
    });
    const source =
      (await sys.api(`/customers/internal-accounts?customerId=${sender}&type=INTERNAL_FIAT&currency=USD`)).body.data[0]
        .id;
    await post(`/sandbox/internal-accounts/${source}/fund`, { amount: 100000 });

    // 0. the payee
    const payee = (await post('/customers/external-accounts', {
      customerId: sender,
      currency: 'MXN',
      accountInfo: {
        accountType: 'MXN_ACCOUNT',
        clabeNumber: '032180000118359719',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Lopez' },
      },
    })).body.id;
    // 1. the agent
    const created = await post('/agents', {
      name: 'Rent agent',
      customerId: sender,
      policy: {
        permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'],
        defaultExecutionMode: 'AUTO',
        spendingLimits: { currency: 'USD', perTransactionLimit: 50000, dailyLimit: 100000 },
        approvalThresholds: { currency: 'USD', amount: 20000 },
      },
    });
    expect(created.status).toBe(201);
    const agent = created.body.agent.id;
    // 2. redeem
    const token =
      (await post(`/agents/device-codes/${created.body.deviceCode.code}/redeem`, undefined, false)).body.accessToken;
    const bearer = `Bearer ${token}`;
    // 3. 50.00 USD, at once
    const quote = (await post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: source },
      destination: { destinationType: 'ACCOUNT', accountId: payee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5000,
    }, bearer)).body.id;
    const executed = await post(`/agents/me/quotes/${quote}/execute`, undefined, bearer);
    expect(executed.body.status).toBe('APPROVED');
    expect(executed.body.transaction.id).toMatch(/^Transaction:/);
    expect((await sys.api('/agents/me', { auth: bearer })).body.usage).toMatchObject({
      dailySpend: 5000,
      dailyTransactionCount: 1,
    });
    // 4. 300.00 USD waits
    const big = (await post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: source },
      destination: { destinationType: 'ACCOUNT', accountId: payee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 30000,
    }, bearer)).body;
    const action = (await post(`/agents/me/quotes/${big.id}/execute`, undefined, bearer)).body;
    expect(action.status).toBe('PENDING_APPROVAL');
    expect((await sys.api(`/transactions/${big.transactionId}`)).body.status).toBe('PENDING');
    expect((await sys.api(`/agents/approvals?agentId=${agent}`)).body.data.map((a: { id: string }) => a.id)).toEqual([
      action.id,
    ]);
    const approved = await post(`/agents/${agent}/actions/${action.id}/approve`);
    expect(approved.body.status).toBe('APPROVED');
    await transactionWhen(sys, big.transactionId, (t) => t.status === 'COMPLETED');
    // 5. paused
    expect((await sys.api(`/agents/${agent}`, { method: 'PATCH', json: { isPaused: true } })).status).toBe(200);
    const refused = await sys.api('/agents/me/transactions', { auth: bearer });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('The agent is paused');
  },
);
