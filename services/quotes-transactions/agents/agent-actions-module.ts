import type { NewEvent } from '../../../lib/bus/outbox';
import type { Logger } from '../../../lib/log';
import type { Lease } from '../../../lib/runtime/lease';
import { createPeriodicTask } from '../../../lib/runtime/periodic-task';
import type { DocumentStore } from '../../../lib/store/document-store';
import type { RateSource } from '../rates/adapters/rate-source';
import { createAgentActionRunner } from './app/agent-action-runner';
import { createAgentApprovals, type AgentRegistry } from './app/agent-approvals';
import { createAgentPayments } from './app/agent-payments';
import { createAgentReads } from './app/agent-reads';
import { createAgentUsage } from './app/agent-usage';
import type { CreateQuote } from '../payments/app/create-quote';
import type { ExecuteQuote } from '../payments/app/execute-quote';
import type { PaymentAccounts } from '../shared/app/payment-accounts';
import type { PaymentStore } from '../payments/app/payment-store';
import type { TransactionEntries } from '../payments/app/transaction-entries';
import type { TransactionQueries } from '../payments/app/transactions-query';
import type { CreateTransfer } from '../payments/app/transfers';
import { bindAgentActionService } from './grpc/agent-action-handlers';
import { createAgentActionDocumentStore } from './store/agent-action-document-store';
import { createAgentUsageDocumentStore } from './store/agent-usage-document-store';

/** Agents' payments, built on the quote, execute and transfer use cases of the payments module. */
export function createAgentActionsModule(deps: {
  store: DocumentStore;
  logger: Logger;
  recoverAfterMs: number;
  leases?: (name: string) => Lease;
  payments: PaymentStore;
  accounts: PaymentAccounts;
  rates: RateSource;
  newEvent: NewEvent;
  clock: () => Date;
  agents: AgentRegistry;
  createQuote: CreateQuote;
  executeQuote: ExecuteQuote;
  createTransfer: CreateTransfer;
  queries: TransactionQueries;
  entries: TransactionEntries;
}) {
  const actionStore = createAgentActionDocumentStore(deps.store);
  const actions = actionStore.port;
  const usage = createAgentUsage({ store: createAgentUsageDocumentStore(deps.store), clock: deps.clock });
  const runner = createAgentActionRunner({ ...deps, actions, usage });
  const payments = createAgentPayments({ ...deps, actions, usage, runner });
  const approvals = createAgentApprovals({ actions, usage, runner, agents: deps.agents, clock: deps.clock });
  const reads = createAgentReads({ actions, entries: deps.entries, agents: deps.agents });
  const recovery = createPeriodicTask({
    name: 'agent approval recovery',
    intervalMs: Math.max(1_000, deps.recoverAfterMs),
    logger: deps.logger,
    run: () => approvals.finishInterrupted(deps.recoverAfterMs),
    ...(deps.leases ? { lease: deps.leases('agent approval recovery') } : {}),
  });
  return {
    binding: bindAgentActionService({ payments, approvals, reads, usage, runner }),
    approvals,
    outboxCollection: actionStore.collection,
    async start() {
      await actions.ensureIndexes();
      recovery.start();
    },
    stop: () => recovery.stop(),
  };
}
