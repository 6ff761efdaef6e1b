/**
 * A balance document of the ledger. `applied` holds the markers of its recent postings (a void's
 * marker is the posting's with `!void`); older ones move to the archive, `archivedUpTo` bounding
 * when any moved marker was applied and `unarchived` counting those waiting.
 *
 * Documents written before the archive existed kept a window of the latest 2,000 markers, with
 * `appliedAt` beside them: markers applied before `appliedAt[0]` of a full window are forgotten.
 * The first archive pass over such a document turns that into `forgottenBefore`.
 */
export type BalanceDoc = {
  _id: string;
  account: string;
  platformId: string;
  currency: string;
  available: number;
  applied?: string[];
  unarchived?: number;
  archivedUpTo?: number;
  forgottenBefore?: number;
  appliedAt?: number[];
  /** An internal account closed for good (its customer was deleted): credits are refused. */
  closed?: boolean;
  /**
   * A system document: the share of several system accounts, written by whole steps (their
   * system postings in one write); `sums` and `currencies` by base64url account name. Its
   * `account`, `currency` and `available` are absent.
   */
  system?: true;
  sums?: Record<string, number>;
  currencies?: Record<string, string>;
};

export const LEGACY_WINDOW = 2_000;

export const voidMarker = (marker: string) => `${marker}!void`;

/** When markers older than it may be missing from a document written before the archive, if any are. */
export function legacyForgottenBefore(doc: Pick<BalanceDoc, 'appliedAt'>): number | undefined {
  const times = doc.appliedAt ?? [];
  return times.length >= LEGACY_WINDOW ? times[0] : undefined;
}
