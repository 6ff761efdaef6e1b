import type { AgentAction } from '../../gen/quotes_transactions/v1/agent_actions';
import { quoteJson, transactionJson } from './payment-record-json';

/** The REST JSON of an AgentAction record (the API's answers and the AGENT_ACTION.* webhooks). */
export function agentActionJson(a: AgentAction) {
  return {
    ...a,
    quote: a.quote && quoteJson(a.quote),
    transaction: a.transaction && transactionJson(a.transaction),
  };
}
