import type { TestSystem } from '../system-harness';
import { externalAccount, fund, payingCustomer } from './payments-fixtures';

export const ALL_PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
];

export function policy(extra: Record<string, unknown> = {}) {
  return {
    permissions: ALL_PERMISSIONS,
    defaultExecutionMode: 'AUTO',
    spendingLimits: {
      currency: 'USD',
      perTransactionLimit: 50_000,
      dailyLimit: 500_000,
      dailyTransactionLimit: 100,
      monthlyLimit: 5_000_000,
    },
    ...extra,
  };
}

/** A funded customer with a USD bank account and an MXN payee, for an agent to pay from. */
export async function agentCustomer(sys: TestSystem, balance = 1_000_000) {
  const payer = await payingCustomer(sys);
  if (balance > 0) await fund(sys, payer.usdAccountId, balance);
  const usdBank = await externalAccount(sys, payer.customerId, 'USD_ACCOUNT');
  const mxnPayee = await externalAccount(sys, payer.customerId, 'MXN_ACCOUNT');
  return { ...payer, usdBank, mxnPayee };
}

/** Creates an agent for the customer and redeems its device code: answers the agent and its Bearer header. */
export async function connectedAgent(
  sys: TestSystem,
  customerId: string,
  agentPolicy: Record<string, unknown> = policy(),
) {
  const created = await sys.api('/agents', {
    method: 'POST',
    json: { name: 'Payroll agent', customerId, policy: agentPolicy },
  });
  expect(created.status).toBe(201);
  const redeemed = await sys.api(`/agents/device-codes/${created.body.deviceCode.code}/redeem`, {
    method: 'POST',
    auth: false,
  });
  expect(redeemed.status).toBe(200);
  return {
    agentId: created.body.agent.id as string,
    bearer: `Bearer ${redeemed.body.accessToken}`,
    deviceCode: created.body.deviceCode.code as string,
  };
}

export function asAgent(sys: TestSystem, bearer: string) {
  return (path: string, init: Parameters<TestSystem['api']>[1] = {}) => sys.api(path, { ...init, auth: bearer });
}

export const quoteBody = (source: string, destination: string, amount: number) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
});

export const transferOut = (source: string, destination: string, amount: number) => ({
  source: { accountId: source },
  destination: { accountId: destination },
  amount,
});
