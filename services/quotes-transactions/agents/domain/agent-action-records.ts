import {
  AgentAction_Status,
  AgentAction_Type,
  type AgentAction as AgentActionRecord,
} from '../../../../gen/quotes_transactions/v1/agent_actions';
import type { AgentAction } from '../app/agent-action-store';
import type { Payment } from '../../payments/domain/payment';
import { toQuoteRecord, toTransactionRecord } from '../../payments/domain/payment-records';

/**
 * The AgentAction record: the quote it executes (EXECUTE_QUOTE), the transfer it asks for, and the
 * transaction once one was made.
 */
export function toAgentActionRecord(a: AgentAction, payment?: Payment | null): AgentActionRecord {
  const made = !!payment && (a.type !== 'EXECUTE_QUOTE' || !!payment.quote?.executedAt) && a.status === 'APPROVED';
  return {
    id: a.id,
    agentId: a.agentId,
    customerId: a.customerId,
    platformCustomerId: a.platformCustomerId,
    status: AgentAction_Status[a.status],
    type: AgentAction_Type[a.type],
    quote: a.type === 'EXECUTE_QUOTE' && payment ? toQuoteRecord(payment) : undefined,
    transferDetails: a.transferDetails,
    transaction: made ? toTransactionRecord(payment!) : undefined,
    rejectionReason: a.rejectionReason,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}
