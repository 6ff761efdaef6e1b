import type { DomainEvent } from '../../../lib/bus/event-bus';
import type { ExternalAccount, ExternalAccountStatus } from '../domain/external-account';
import type { OwnershipChallengeRecord } from '../domain/ownership-challenge';
import type { ExternalAccountFilter, Page, PageQuery, PendingProvisioningQuery } from './accounts-store';

/** A conditional status change of one external account, with the events recorded in the same write. */
interface ExternalAccountWrite {
  platformId: string;
  id: string;
  now: string;
  events: DomainEvent[];
}

/** Moves the account from status `from` to `to`. */
export interface ExternalAccountTransition extends ExternalAccountWrite {
  from: ExternalAccountStatus;
  to: ExternalAccountStatus;
}

/** Starts an ownership challenge on an account still in status `from`. */
export interface OwnershipChallengeStart extends ExternalAccountWrite {
  from: ExternalAccountStatus;
  challenge: OwnershipChallengeRecord;
}

/** Completes the outstanding ownership challenge `nonce`, moving the account to `to`. */
export interface OwnershipChallengeCompletion extends ExternalAccountWrite {
  nonce: string;
  to: ExternalAccountStatus;
}

/** The external-account storage the use cases need (implemented in store/). */
export interface ExternalAccountStore {
  /**
   * Inserts the account. With `clearsPreviousDefault` it carries a marker until
   * `clearPreviousDefaults` has run for it, so a crash in between is completed later.
   */
  insert(account: ExternalAccount, events: DomainEvent[], options?: { clearsPreviousDefault?: boolean }): Promise<void>;
  find(platformId: string, id: string): Promise<ExternalAccount | null>;
  list(platformId: string, filter: ExternalAccountFilter, page: PageQuery): Promise<Page<ExternalAccount>>;
  /**
   * Clears the default UMA deposit flag of the customer's accounts created before `account`
   * (so the newest default wins whatever order repairs run in), then removes its marker.
   */
  clearPreviousDefaults(account: ExternalAccount, now: string): Promise<void>;
  /** Accounts whose marker is still set, created at or before `plannedBefore`. */
  findPendingDefaultClearing(query: PendingProvisioningQuery): Promise<ExternalAccount[]>;
  /** Deletes the account (kept as a tombstone for its event) if still present; false when it was not. */
  markDeleted(platformId: string, id: string, now: string, events: DomainEvent[]): Promise<boolean>;
  /** Sets `to` only if the status is still `from` (dropping any challenge); the updated account or null. */
  transitionStatus(transition: ExternalAccountTransition): Promise<ExternalAccount | null>;
  /** Sets the challenge (and PENDING_OWNERSHIP_VERIFICATION) only if the status is still `from`. */
  startOwnershipChallenge(start: OwnershipChallengeStart): Promise<ExternalAccount | null>;
  /** Sets `to` and drops the challenge only if challenge `nonce` is still outstanding. */
  completeOwnershipChallenge(completion: OwnershipChallengeCompletion): Promise<ExternalAccount | null>;
  /** Accounts whose LIVENESS challenge is due to complete at `now` (sandbox simulation). */
  findDueLivenessChallenges(now: string, limit: number): Promise<ExternalAccount[]>;
}
