import type { DomainEvent } from '../../../../lib/bus/event-bus';
import type { UsageReservation } from './agent-usage';

export type AgentActionStatus = 'PENDING_APPROVAL' | 'APPROVED' | 'REJECTED' | 'FAILED';
export type AgentActionType = 'EXECUTE_QUOTE' | 'TRANSFER_OUT' | 'TRANSFER_IN';

export interface TransferDetails {
  amount: number;
  currency: string;
  sourceAccountId: string;
  destinationAccountId: string;
}

/** One payment an agent asked for, and what became of it. */
export interface AgentAction {
  id: string;
  platformId: string;
  agentId: string;
  customerId: string;
  platformCustomerId: string;
  status: AgentActionStatus;
  type: AgentActionType;
  /** The quote's transaction (EXECUTE_QUOTE), or the transfer's once made. */
  paymentId?: string;
  quoteId?: string;
  /** The quote, while this action may still execute it: one such action per quote (cleared once REJECTED or FAILED). */
  quoteClaim?: string;
  transferDetails?: TransferDetails;
  /** The transfer request as the agent gave it, made on approval. */
  transferBody?: Record<string, unknown>;
  rejectionReason?: string;
  failureMessage?: string;
  /** Approved and being executed (cleared once the payment exists or failed). */
  executing?: boolean;
  idempotencyKey?: string;
  /** What it counted against the agent's limits (absent in actions of earlier versions: their own record). */
  usageReservation?: UsageReservation;
  createdAt: string;
  updatedAt: string;
}

export interface AgentActionQuery {
  agentId?: string;
  customerId?: string;
  status?: AgentActionStatus;
  startDate?: string;
  endDate?: string;
  limit: number;
  after?: { createdAt: string; id: string };
  sortOrder: 'asc' | 'desc';
}

/** Raised by `insert` when the action (or the agent's idempotency key, or a quote's one action) exists. */
export class AgentActionExists extends Error {
  constructor() {
    super('agent action exists');
    this.name = 'AgentActionExists';
  }
}

/** A conditional move of one action out of status `from`, setting `set` and removing `unset`. */
export interface AgentActionTransition {
  platformId: string;
  id: string;
  from: AgentActionStatus | 'EXECUTING';
  set: Partial<AgentAction>;
  unset?: Array<keyof AgentAction>;
}

/** Storage port of agent actions; their events ride in the same write (outbox). */
export interface AgentActionStore {
  insert(action: AgentAction, events: DomainEvent[]): Promise<void>;
  get(platformId: string, id: string): Promise<AgentAction | null>;
  /** The action waiting for approval to execute the quote, if any (only a quote's action waits on a transaction). */
  pendingForQuote(platformId: string, quoteId: string): Promise<AgentAction | null>;
  /** Moves the action from `from` to the change, atomically: null when it was no longer in `from`. */
  transition(change: AgentActionTransition): Promise<AgentAction | null>;
  /** Approved actions still `executing` since before `before` (a crash between the decision and the payment). */
  interruptedExecutions(before: string, limit: number): Promise<AgentAction[]>;
  list(
    platformId: string,
    query: AgentActionQuery,
  ): Promise<{ actions: AgentAction[]; hasMore: boolean; totalCount: number }>;
  ensureIndexes(): Promise<void>;
}
