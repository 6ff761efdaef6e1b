import type { DeliveryAttempt, DeliveryStatus, NextState, WebhookDelivery } from '../domain/webhook-delivery';

export interface DeliveryClaim {
  claimId: string;
  /** Epoch ms after which the claim lapses and another worker may take the delivery. */
  until: number;
}

export interface DeliveryPageQuery {
  limit: number;
  /** Newest first: the page starts after this record. */
  after?: { createdAt: string; id: string };
  status?: DeliveryStatus;
  type?: string;
}

export interface DeliveryPage {
  items: WebhookDelivery[];
  hasMore: boolean;
  totalCount: number;
}

/** The storage the webhook use cases own; store/ implements it. */
export interface WebhookDeliveryStore {
  /** Creates indexes. */
  prepare(): Promise<void>;
  /** False when a delivery with this id exists already (the event was seen before). */
  insert(delivery: WebhookDelivery & { claimId?: string }): Promise<boolean>;
  /**
   * In one conditional write: the most overdue delivery that is PENDING and due, or DELIVERING with
   * a lapsed claim, becomes DELIVERING under `claim` with its attempt count raised by one.
   */
  claimDue(now: number, claim: DeliveryClaim): Promise<WebhookDelivery | null>;
  /** Appends the attempt and moves to `next`, only while `claimId` still holds; false when the claim was lost. */
  finishAttempt(id: string, claimId: string, attempt: DeliveryAttempt, next: NextState): Promise<boolean>;
  /**
   * Gives a claimed delivery back as PENDING, due at `dueAt`, without counting an attempt; false when the claim was
   * lost.
   */
  postpone(id: string, claimId: string, dueAt: number): Promise<boolean>;
  get(platformId: string, id: string): Promise<WebhookDelivery | null>;
  /**
   * An ended delivery due again at `dueAt` (PENDING, `maxAttempts` as given, no `deliveredAt`), only
   * while it still has the status and attempt count it was read with; false otherwise.
   */
  reopen(
    id: string,
    expected: Pick<WebhookDelivery, 'status' | 'attemptCount'>,
    dueAt: number,
    maxAttempts: number,
  ): Promise<boolean>;
  /** Deliveries not yet ended (PENDING or DELIVERING), and when the oldest of them was created (metrics). */
  unfinished(): Promise<{ count: number; oldestCreatedAt?: string }>;
  /** Forgets deliveries that ended (delivered, failed, skipped) and were created before `createdBefore`. */
  forgetFinished(createdBefore: Date): Promise<number>;
  list(platformId: string, query: DeliveryPageQuery): Promise<DeliveryPage>;
}
