import type { DelegatedKey } from '../domain/delegated-key';

/** Storage of delegated keys; every change of status is one conditional write. */
export interface DelegatedKeyStore {
  ensureIndexes(): Promise<void>;
  insert(key: DelegatedKey): Promise<void>;
  get(platformId: string, id: string): Promise<DelegatedKey | null>;
  /** The key whose creation or policy challenge has this request id. */
  byRequestId(platformId: string, requestId: string): Promise<DelegatedKey | null>;
  /** CREATING → PENDING with the policy challenge; null when the key had moved on. */
  markPending(
    id: string,
    policyChallenge: NonNullable<DelegatedKey['policyChallenge']>,
    now: string,
  ): Promise<DelegatedKey | null>;
  /** PENDING → ACTIVE; throws ActiveKeyExists when the funding source already has an ACTIVE key. */
  activate(id: string, now: string): Promise<DelegatedKey | null>;
  /** ACTIVE → REVOKED; null when it was not ACTIVE. */
  revoke(platformId: string, id: string, now: string): Promise<DelegatedKey | null>;
  /** The card's ACTIVE keys. */
  activeOfCard(platformId: string, cardId: string): Promise<DelegatedKey[]>;
  /** ACTIVE keys of every platform after the key id `after`, by id: the repair sweep's pages. */
  activeAfter(after: string | undefined, limit: number): Promise<DelegatedKey[]>;
  /** The funding source's ACTIVE key, if any. */
  active(platformId: string, fundingSourceId: string): Promise<DelegatedKey | null>;
  /** Removes keys still CREATING (first challenge never signed) created before `before`; answers how many. */
  purgeCreating(before: string): Promise<number>;
  /** Keys of the platform still CREATING, created since `since`. */
  countCreatingSince(platformId: string, since: string): Promise<number>;
  /** Removes one key still CREATING (one begun over the quota). */
  discardCreating(id: string): Promise<void>;
  /** Visible keys (not CREATING) of an account and/or funding source, newest first. */
  list(
    platformId: string,
    filter: { accountId?: string; fundingSourceId?: string },
    limit: number,
  ): Promise<DelegatedKey[]>;
}

export class ActiveKeyExists extends Error {
  constructor() {
    super('an ACTIVE delegated key exists for this card funding source');
    this.name = 'ActiveKeyExists';
  }
}
