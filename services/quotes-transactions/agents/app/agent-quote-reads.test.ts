import type { Payment } from '../../payments/domain/payment';
import type { PaymentStore } from '../../payments/app/payment-store';
import { createTransactionQueries } from '../../payments/app/transactions-query';
import { createAgentPayments, type AgentPaymentsDeps } from './agent-payments';

const now = new Date('2026-06-01T00:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString();
const caller = { platformId: 'P' };
const quoted = (
  id: string,
  customerId: string,
  agentId: string,
  createdAt: string,
) => ({ id: `Transaction:${id}`, customerId, agentId, createdAt, quote: { id: `Quote:${id}` } } as unknown as Payment);
const stored = [
  quoted('old-eu', 'EU', 'Agent:eu', daysAgo(200)),
  quoted('new-eu', 'EU', 'Agent:eu', daysAgo(5)),
  quoted('old-us', 'US', 'Agent:us', daysAgo(200)),
];
const payments = {
  async getByQuote(_p: string, quoteId: string) {
    return stored.find((p) => p.quote?.id === quoteId) ?? null;
  },
} as unknown as PaymentStore;
const agent = (agentId: string, customerId: string) => ({ agentId, customerId, policy: {} } as never);

/** EU is an SCA customer; `live` lists the customers with a live SCA login session. */
function agentPayments(live: string[]) {
  const queries = createTransactionQueries({
    payments,
    clock: () => now,
    scaReads: async (_c, customerId) => ({ scaCustomer: customerId === 'EU', sessionLive: live.includes(customerId) }),
  });
  return createAgentPayments({ payments, queries, clock: () => now } as unknown as AgentPaymentsDeps);
}

test("an agent reads an SCA customer's old quote only in the customer's session, as GET /quotes/{id}", async () => {
  const closed = agentPayments(['US']);
  await expect(closed.getQuote(caller, agent('Agent:eu', 'EU'), 'Quote:old-eu')).rejects.toMatchObject({
    code: 'SCA_SESSION_REQUIRED',
  });
  expect((await closed.getQuote(caller, agent('Agent:eu', 'EU'), 'Quote:new-eu')).id).toBe('Transaction:new-eu');
  expect((await closed.getQuote(caller, agent('Agent:us', 'US'), 'Quote:old-us')).id).toBe('Transaction:old-us');
  // Another agent's quote is missing to it, whatever its age: never a 409 that tells it exists.
  await expect(closed.getQuote(caller, agent('Agent:us', 'US'), 'Quote:old-eu')).rejects.toMatchObject({
    code: 'QUOTE_NOT_FOUND',
  });
  expect((await agentPayments(['EU']).getQuote(caller, agent('Agent:eu', 'EU'), 'Quote:old-eu')).id).toBe(
    'Transaction:old-eu',
  );
});
