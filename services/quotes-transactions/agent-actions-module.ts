import type { NewEvent } from '../../lib/bus/outbox';
import type { DocumentStore } from '../../lib/store/document-store';
import type { RateSource } from './adapters/rate-source';
import { createAgentActionRunner } from './app/agents/agent-action-runner';
import { createAgentApprovals } from './app/agents/agent-approvals';
import { createAgentPayments } from './app/agents/agent-payments';
import { createAgentReads } from './app/agents/agent-reads';
import { createAgentUsage } from './app/agents/agent-usage';
import type { CreateQuote } from './app/create-quote';
import type { ExecuteQuote } from './app/execute-quote';
import type { PaymentAccounts } from './app/payment-accounts';
import type { PaymentStore } from './app/payment-store';
import type { TransactionQueries } from './app/transactions-query';
import type { CreateTransfer } from './app/transfers';
import { bindAgentActionService } from './grpc/agent-action-handlers';
import { createAgentActionDocumentStore } from './store/agent-action-document-store';
import { createAgentUsageDocumentStore } from './store/agent-usage-document-store';

/** Agents' payments, built on the quote, execute and transfer use cases of the payments module. */
export function createAgentActionsModule(deps: {
  store: DocumentStore; payments: PaymentStore; accounts: PaymentAccounts; rates: RateSource; newEvent: NewEvent; clock: () => Date;
  createQuote: CreateQuote; executeQuote: ExecuteQuote; createTransfer: CreateTransfer; queries: TransactionQueries;
}) {
  const actionStore = createAgentActionDocumentStore(deps.store);
  const actions = actionStore.port;
  const usage = createAgentUsage({ store: createAgentUsageDocumentStore(deps.store), clock: deps.clock });
  const runner = createAgentActionRunner({ ...deps, actions, usage });
  const payments = createAgentPayments({ ...deps, actions, usage, runner });
  const approvals = createAgentApprovals({ actions, usage, runner, clock: deps.clock });
  const reads = createAgentReads({ actions, queries: deps.queries });
  return {
    binding: bindAgentActionService({ payments, approvals, reads, usage, runner }),
    approvals,
    outboxCollection: actionStore.collection,
    start: () => actions.ensureIndexes(),
  };
}
