import type { Currency } from '../../shared/domain/currency-catalogue';
import type { FeeBreakdown } from './fees';
import type { LedgerStep } from '../../ledger/domain/ledger-postings';
import type { LockedSide } from './pricing';
import type { SandboxOutcome } from './sandbox-outcomes';
import type { ApprovalState, ReceiverFieldRequest } from './incoming-payment-approval';
import type {
  FailureReason,
  PendingReason,
  RefundStatus,
  SettlementStage,
  TransactionStatus,
} from './transaction-states';

export type PaymentType = 'OUTGOING' | 'INCOMING';

export interface Money {
  amount: number;
  currency: Currency;
}

/** Where the money comes from. Account sources carry the account's kind and owner. */
export type PaymentSource =
  | {
    sourceType: 'ACCOUNT';
    accountId: string;
    accountKind: 'INTERNAL' | 'EXTERNAL';
    internalType?: string;
    customerId?: string;
    currency: string;
  }
  | { sourceType: 'REALTIME_FUNDING'; customerId?: string; currency: string; cryptoNetwork?: string }
  | { sourceType: 'UMA_ADDRESS'; umaAddress: string; currency: string };

export type PaymentDestination =
  | {
    destinationType: 'ACCOUNT';
    accountId: string;
    accountKind: 'INTERNAL' | 'EXTERNAL';
    currency: string;
    paymentRail?: string;
    cryptoNetwork?: string;
  }
  | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency: string };

export interface OnChainTransaction {
  transactionHash: string;
  network: string;
}

export interface Refund {
  reference: string;
  initiatedAt: string;
  settledAt?: string;
  status: RefundStatus;
  reason: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';
}

/** What a quote adds to its transaction: the lock, the expiry, how it is funded. */
export interface QuoteTerms {
  id: string;
  lockedSide: LockedSide;
  lockedAmount: number;
  expiresAt: string;
  lookupId?: string;
  executedAt?: string;
  /** Idempotency key of the execution that won, to answer its repeats. */
  executionKey?: string;
  paymentInstructions?: Array<Record<string, unknown>>;
  /** The signed-retry request that authorizes executing from an embedded wallet. */
  walletRequestId?: string;
}

/** The Strong Customer Authentication a quote awaits (PENDING_AUTHORIZATION) or received. */
export interface ScaState {
  challenge: {
    id: string;
    expiresAt: string;
    factor: string;
    availableFactors: string[];
    purpose?: string;
    passkeyAssertionOptionsJson?: string;
  };
  /** What the proof must be bound to: the quote, its amount and currency, and its payee. */
  binding: string;
  /**
   * The purposes of the challenges still to come after this one (a cross-currency send: the payout after the
   * conversion).
   */
  nextPurposes?: string[];
  /** The challenges of the steps already authorized (a repeat of one's proof answers the same success). */
  completedChallengeIds?: string[];
  /** Realtime funding: the instructions given once authorized. */
  withheldInstructions?: Array<Record<string, unknown>>;
  authorizedAt?: string;
}

/** A payment handed to the operator's settlement rail (docs/settlement-rails.md). */
export interface RailSubmission {
  submittedAt: string;
  /** The rail's own reference (a bank reference, an on-chain hash), from the first report that gave one. */
  reference?: string;
}

/** A step whose postings may be partly applied: finishing it sets `then` (or `onVoid` if refused). */
export interface PendingStep extends LedgerStep {
  startedAt: string;
  then: PaymentChange;
  onVoid?: PaymentChange;
}

export interface PaymentChange {
  set: Partial<Payment>;
  unset?: Array<keyof Payment>;
  /** Webhook kinds emitted when the change lands, e.g. OUTGOING_PAYMENT.COMPLETED. */
  events: string[];
}

/**
 * One document per payment: a quote and the transaction it becomes share it (the reference's
 * transaction exists from the quote on, PENDING until executed), so executing a quote is a
 * conditional update of one document and one quote can only ever give one transaction.
 */
export interface Payment {
  id: string;
  platformId: string;
  /**
   * W3C trace context of the request that started the payment (created it, or executed its quote); settlement steps
   * join it.
   */
  traceparent?: string;
  /** Optimistic-concurrency version: every change is conditional on it. */
  version: number;
  type: PaymentType;
  status: TransactionStatus;
  pendingReason?: PendingReason;
  failureReason?: FailureReason;
  customerId: string;
  platformCustomerId: string;
  /** The agent that initiated it (its quote, or its transfer), when one did. */
  agentId?: string;
  source: PaymentSource;
  destination: PaymentDestination;
  sent: Money;
  received: Money;
  exchangeRate: number;
  fees: FeeBreakdown;
  /** The ledger account credited with the platform fee. */
  platformFeeAccount?: string;
  quote?: QuoteTerms;
  description?: string;
  remittanceInformation?: string;
  purposeOfPayment?: string;
  counterpartyInformation?: Record<string, unknown>;
  paymentRail?: string;
  reference: string;
  sandboxOutcome: SandboxOutcome;
  stage?: SettlementStage;
  /** When the settlement worker should look at it next. */
  nextActionAt?: string;
  refund?: Refund;
  /** Refund attempts that failed so far; the worker retries with a growing delay. */
  failedRefundAttempts?: number;
  /** An incoming payment sent by another customer on this server: the sender's platform and OUTGOING transaction. */
  sameServerOrigin?: { platformId: string; transactionId: string };
  /** The platform rejected this incoming payment (POST /transactions/{id}/reject). */
  rejectedByPlatform?: boolean;
  /**
   * An incoming UMA payment waiting for the platform's answer to its incoming-payment webhook
   * (domain/incoming-payment-approval.ts).
   */
  approval?: ApprovalState;
  /**
   * Incoming on an approval rail: the fields the sender's VASP asks about the recipient (carried by the approval
   * webhook).
   */
  requestedReceiverFields?: ReceiverFieldRequest[];
  /** What the platform's approval answered about the recipient (`receiverCustomerInfo`). */
  receiverCustomerInfo?: Record<string, unknown>;
  sourceOnChain?: OnChainTransaction;
  destinationOnChain?: OnChainTransaction;
  /** A UMA payment once settled: the hash of the payment that settled it between the two VASPs. */
  umaSettlementHash?: string;
  pendingStep?: PendingStep;
  /**
   * On an operator's settlement rail (SETTLEMENT_RAIL=operator): when it was handed to the rail, and the rail's
   * reference once reported.
   */
  rail?: RailSubmission;
  /** Strong Customer Authentication of an SCA customer's payment (app/quote-authorization.ts). */
  sca?: ScaState;
  appliedSteps: string[];
  idempotency?: { key: string; hash: string };
  receiptDeliveryConfirmedAt?: string;
  settledAt?: string;
  createdAt: string;
  updatedAt: string;
}
