import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { Payment } from '../../payments/domain/payment';
import { createAgentActionDocumentStore } from '../store/agent-action-document-store';
import { createAgentUsageDocumentStore } from '../store/agent-usage-document-store';
import { createAgentActionRunner } from './agent-action-runner';
import type { AgentAction } from './agent-action-store';
import { createAgentApprovals } from './agent-approvals';
import { createAgentUsage } from './agent-usage';

const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
const now = new Date('2026-05-01T12:00:00Z');

/** Real stores; the payment itself (a transfer here) is `createTransfer`. */
async function setUp(createTransfer: (command: unknown) => Promise<Payment>, agentExists = true) {
  const store = createEmbeddedDocumentStore();
  const actions = createAgentActionDocumentStore(store).port;
  await actions.ensureIndexes();
  const usage = createAgentUsage({ store: createAgentUsageDocumentStore(store), clock: () => now });
  const runner = createAgentActionRunner({
    actions,
    usage,
    clock: () => now,
    createTransfer,
    payments: {} as never,
    rates: {} as never,
    executeQuote: {} as never,
    newEvent: {} as never,
  });
  const agents = { exists: async () => agentExists };
  return { actions, usage, approvals: createAgentApprovals({ actions, usage, runner, agents, clock: () => now }) };
}

const action = (over: Partial<AgentAction> = {}): AgentAction => ({
  id: 'AgentAction:00000000-0000-4000-8000-000000000001',
  platformId: PLATFORM,
  agentId: 'Agent:1',
  customerId: 'Customer:1',
  platformCustomerId: 'c-1',
  status: 'APPROVED',
  executing: true,
  type: 'TRANSFER_OUT',
  transferBody: {},
  createdAt: '2026-05-01T11:00:00Z',
  updatedAt: '2026-05-01T11:00:00Z',
  ...over,
});

test('an approval interrupted before its payment is finished once by the recovery', async () => {
  const perform = jest.fn(async (_command: unknown) => ({ id: 'Transaction:1' }) as Payment);
  const { actions, approvals } = await setUp(perform);
  await actions.insert(action(), []);
  await actions.insert(
    action({ id: 'AgentAction:00000000-0000-4000-8000-000000000002', updatedAt: now.toISOString() }),
    [],
  );
  expect(await approvals.finishInterrupted(30_000)).toBe(1);
  expect(perform).toHaveBeenCalledTimes(1);
  expect(perform.mock.calls[0][0]).toMatchObject({ idempotencyKey: action().id, direction: 'OUT' });
  expect(await actions.get(PLATFORM, action().id)).toMatchObject({ status: 'APPROVED', paymentId: 'Transaction:1' });
  expect((await actions.get(PLATFORM, action().id))!.executing).toBeUndefined();
  expect(await approvals.finishInterrupted(30_000)).toBe(0);
});

test('a payment that cannot be made leaves the action FAILED and gives its spend back', async () => {
  const { quoteExpired } = await import('../../payments/app/quote-conflicts');
  const { actions, usage, approvals } = await setUp(async () => {
    throw quoteExpired({ id: 'Quote:1', expiresAt: '2026-01-01T00:00:00Z' });
  });
  const agent = {
    agentId: 'Agent:1',
    customerId: 'Customer:1',
    policy: {
      permissions: [],
      defaultExecutionMode: 'APPROVAL_REQUIRED' as const,
      spendingLimits: { currency: 'USD', perTransactionLimit: 10_000 },
      accountRules: [],
    },
  };
  await usage.reserve(agent, {
    actionId: action().id,
    amount: 700,
    record: (usageReservation) =>
      actions.insert({ ...action({ status: 'PENDING_APPROVAL', executing: undefined }), usageReservation }, []),
  });
  const approved = await approvals.approve({ platformId: PLATFORM }, 'Agent:1', action().id);
  expect(approved.status).toBe('FAILED');
  expect(await usage.current('Agent:1')).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
});

test('approving an action of a deleted agent rejects it, makes no payment and gives its spend back', async () => {
  const perform = jest.fn(async (_command: unknown) => ({ id: 'Transaction:1' }) as Payment);
  const { actions, usage, approvals } = await setUp(perform, false);
  const agent = {
    agentId: 'Agent:1',
    customerId: 'Customer:1',
    policy: {
      permissions: [],
      defaultExecutionMode: 'APPROVAL_REQUIRED' as const,
      spendingLimits: { currency: 'USD', perTransactionLimit: 10_000 },
      accountRules: [],
    },
  };
  await usage.reserve(agent, {
    actionId: action().id,
    amount: 700,
    record: (usageReservation) =>
      actions.insert({ ...action({ status: 'PENDING_APPROVAL', executing: undefined }), usageReservation }, []),
  });

  await expect(approvals.approve({ platformId: PLATFORM }, 'Agent:1', action().id)).rejects.toMatchObject({
    code: 'CONFLICT',
  });
  expect(perform).not.toHaveBeenCalled();
  expect(await actions.get(PLATFORM, action().id)).toMatchObject({
    status: 'REJECTED',
    rejectionReason: expect.stringContaining('deleted'),
  });
  expect(await usage.current('Agent:1')).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
});
