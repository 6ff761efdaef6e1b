import {
  decisionStep,
  holdsAccount,
  undoDecisionStep,
  type CardTransaction,
} from '../../cards/domain/card-transaction';
import { isGuarded, systemAccount, type LedgerStep } from '../domain/ledger-postings';
import type { Payment } from '../../payments/domain/payment';
import { holdsFundsInTransit, movement, type MovementName } from '../../payments/domain/payment-movements';
import { isTerminal } from '../../payments/domain/transaction-states';
import type { CardTransactionEntry } from '../../cards/app/card-transaction-store';

/** One balance document as stored: an internal account's, or a system document's shares (`sums`). */
export interface AuditBalanceDocument {
  _id: string;
  account?: string;
  platformId: string;
  currency?: string;
  available?: number;
  system?: boolean;
  sums?: Record<string, number>;
  currencies?: Record<string, string>;
  /** Markers of its postings still in the document (a void's ends in `!void`). */
  applied?: string[];
  archivedUpTo?: number;
}

/** Markers an archive pass moved out of `balance`, every one applied by `appliedThrough`. */
export interface AuditArchivedMarkers {
  balance: string;
  markers: string[];
  appliedThrough: number;
}

/** Everything the audit reads: the ledger and the owners of its steps. */
export interface LedgerSnapshot {
  balances: AuditBalanceDocument[];
  archive: AuditArchivedMarkers[];
  /** Standalone steps (sandbox funding, stablecoin debits and refunds), finished or not. */
  journal: Array<{ platformId: string; step: LedgerStep; done: boolean }>;
  payments: Payment[];
  cardTransactions: CardTransactionEntry[];
}

export type AuditCheck = 'CURRENCY_SUM' | 'HOLD_OWNER' | 'MARKER_TWICE' | 'ACCOUNT_POSTINGS' | 'OWNER_STATE';

export interface AuditProblem {
  check: AuditCheck;
  /** The currency, account or marker concerned. */
  subject: string;
  detail: string;
}

export interface LedgerAuditReport {
  clean: boolean;
  problems: AuditProblem[];
  /**
   * Owners whose step was still moving (a pending card event, a decision not answered): their accounts were left out of
   * the exact checks.
   */
  inFlight: string[];
  counts: {
    balances: number;
    markers: number;
    journalSteps: number;
    payments: number;
    cardTransactions: number;
    internalAccounts: number;
  };
}

const VOID = '!void';
const MAX_PROBLEMS = 200;

/** `${key}#${index}` for a posting to an internal account, `${key}#system` for a step's system postings. */
const markerOf = (step: LedgerStep, index: number) =>
  `${step.key}#${isGuarded(step.postings[index].account) ? index : 'system'}`;

/**
 * The ledger audit, a pure function of a snapshot. It checks that:
 * - every currency's balances sum to zero (each step balances per currency);
 * - every hold has exactly one live owner: card-holds holds what the open card transactions hold
 *   and transit what the payments hold in transit, and a hold placed on a card's funding source is
 *   either the approved transaction's or given back, never both, never neither;
 * - no step marker appears twice: no posting applied twice (in a document and, once moved, in the
 *   archive) and none both applied and voided;
 * - every internal account's balance equals its postings: the sum of the postings of the steps
 *   whose markers it holds, each step known to its owner (a payment's movements, a journaled
 *   step, a card transaction's decision and its events);
 * - every owner's money agrees with the state it shows: a payment in a final state holds nothing in transit, and a
 *   card transaction that is SETTLED or REFUNDED holds nothing on its funding account.
 * Steps still in flight (a card event recorded and not finished) leave their accounts out of the
 * exact balance checks; run the audit on a quiet ledger, or again, to check those.
 */
export function auditLedger(snapshot: LedgerSnapshot): LedgerAuditReport {
  const problems: AuditProblem[] = [];
  const report = (check: AuditCheck, subject: string, detail: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ check, subject, detail });
  };
  const markers = markerCounts(snapshot, report);
  const present = (marker: string) => (markers.get(marker) ?? 0) > 0;

  // What each internal account and each hold account should hold, from the steps' owners.
  const expected = new Map<string, number>();
  const add = (account: string, amount: number) => expected.set(account, (expected.get(account) ?? 0) + amount);
  const explained = new Set<string>();
  const skipped = new Set<string>();
  const inFlight: string[] = [];
  const applyKnown = (step: LedgerStep) =>
    step.postings.forEach((posting, index) => {
      const marker = markerOf(step, index);
      explained.add(marker);
      if (present(marker) && (isGuarded(posting.account) || isHold(posting.account))) {
        add(posting.account, posting.amount);
      }
    });

  for (const { step } of snapshot.journal) applyKnown(step);
  for (const p of snapshot.payments) {
    for (const name of p.appliedSteps) applyKnown(movement(p, name as MovementName));
    if (p.pendingStep) applyKnown(p.pendingStep);
  }
  for (const entry of snapshot.cardTransactions) {
    auditCard(entry, { present, applyKnown, add, explained, skipped, inFlight, report });
  }

  checkOwnerStates(snapshot, report);
  const balances = balancesOf(snapshot.balances);
  checkSums(balances, report);
  let internalAccounts = 0;
  for (const [account, b] of balances) {
    if (!isGuarded(account) && !isHold(account)) continue;
    if (isGuarded(account)) internalAccounts++;
    if (skipped.has(account)) continue;
    const want = expected.get(account) ?? 0;
    if (want !== b.available) {
      report(
        isGuarded(account) ? 'ACCOUNT_POSTINGS' : 'HOLD_OWNER',
        account,
        `holds ${b.available} ${b.currency}; its owners' steps account for ${want}`,
      );
    }
  }
  const movedOut = new Map<string, string[]>();
  for (const a of snapshot.archive) movedOut.set(a.balance, [...(movedOut.get(a.balance) ?? []), ...a.markers]);
  for (const doc of snapshot.balances) {
    if (doc.system || !doc.account || !isGuarded(doc.account)) continue;
    for (const marker of new Set([...(doc.applied ?? []), ...(movedOut.get(doc._id) ?? [])])) {
      if (marker.endsWith(VOID) || explained.has(marker) || skipped.has(doc.account)) continue;
      report(
        'ACCOUNT_POSTINGS',
        marker,
        `a posting to ${doc.account} that no payment, card transaction or journaled step owns`,
      );
    }
  }
  return {
    clean: problems.length === 0,
    problems,
    inFlight,
    counts: {
      balances: snapshot.balances.length,
      markers: markers.size,
      journalSteps: snapshot.journal.length,
      payments: snapshot.payments.length,
      cardTransactions: snapshot.cardTransactions.length,
      internalAccounts,
    },
  };
}

/**
 * The system accounts that hold money for an owner: card-holds (open authorizations) and transit (payments under way).
 */
function isHold(account: string): boolean {
  return account.startsWith('ledger:card-holds:') || account.startsWith('ledger:transit:');
}

/** How often each marker was applied: in its document, plus once moved to the archive unless the move is unfinished. */
function markerCounts(
  snapshot: LedgerSnapshot,
  report: (check: AuditCheck, subject: string, detail: string) => void,
): Map<string, number> {
  const archived = new Map<string, Map<string, number>>();
  for (const a of snapshot.archive) {
    const byMarker = archived.get(a.balance) ?? new Map<string, number>();
    for (const m of a.markers) byMarker.set(m, Math.min(byMarker.get(m) ?? Infinity, a.appliedThrough));
    archived.set(a.balance, byMarker);
  }
  const counts = new Map<string, number>();
  for (const doc of snapshot.balances) {
    const moved = archived.get(doc._id) ?? new Map<string, number>();
    const inDocument = new Map<string, number>();
    for (const m of doc.applied ?? []) inDocument.set(m, (inDocument.get(m) ?? 0) + 1);
    const all = new Set([...inDocument.keys(), ...moved.keys()]);
    for (const m of all) {
      const here = inDocument.get(m) ?? 0;
      const through = moved.get(m);
      // A marker still in the document and in the archive is an archive move cut short, unless the document records a
      // finished move since.
      const twiceMoved = here > 0 && through !== undefined && doc.archivedUpTo !== undefined
        && through <= doc.archivedUpTo;
      const times = here + (through !== undefined && (here === 0 || twiceMoved) ? 1 : 0);
      if (m.endsWith(VOID)) continue;
      counts.set(m, times);
      if (times > 1) report('MARKER_TWICE', m, `applied ${times} times to ${doc._id}`);
      if (times > 0 && (inDocument.has(m + VOID) || moved.has(m + VOID))) {
        report('MARKER_TWICE', m, `both applied and voided in ${doc._id}`);
      }
    }
  }
  return counts;
}

/** Each account's balance, its system shares summed over their documents. */
function balancesOf(docs: AuditBalanceDocument[]): Map<string, { currency: string; available: number }> {
  const sums = new Map<string, { currency: string; available: number }>();
  const add = (account: string, currency: string, available: number) => {
    const b = sums.get(account) ?? { currency, available: 0 };
    b.available += available;
    sums.set(account, b);
  };
  for (const doc of docs) {
    if (!doc.system) {
      if (doc.account) add(doc.account, doc.currency ?? '', doc.available ?? 0);
      continue;
    }
    for (const [key, amount] of Object.entries(doc.sums ?? {})) {
      add(Buffer.from(key, 'base64url').toString(), doc.currencies?.[key] ?? '', amount);
    }
  }
  return sums;
}

function checkSums(
  balances: Map<string, { currency: string; available: number }>,
  report: (check: AuditCheck, subject: string, detail: string) => void,
) {
  const byCurrency = new Map<string, number>();
  for (const { currency, available } of balances.values()) {
    byCurrency.set(currency, (byCurrency.get(currency) ?? 0) + available);
  }
  for (const [currency, sum] of byCurrency) {
    if (sum !== 0) report('CURRENCY_SUM', currency, `balances sum to ${sum}, not 0`);
  }
}

/** Owners at rest whose state and money disagree (the balances can all be exact and a customer still short). */
function checkOwnerStates(
  snapshot: LedgerSnapshot,
  report: (check: AuditCheck, subject: string, detail: string) => void,
) {
  for (const p of snapshot.payments) {
    if (!p.pendingStep && isTerminal(p.type, p.status) && holdsFundsInTransit(p)) {
      report('OWNER_STATE', p.id, `is ${p.status} with its money still in transit (${p.appliedSteps.join(', ')})`);
    }
  }
  for (const entry of snapshot.cardTransactions) {
    const atRest = entry.decision === 'APPROVED' && !entry.pending && !entry.releasing;
    if (atRest && (entry.status === 'SETTLED' || entry.status === 'REFUNDED') && entry.held !== 0) {
      report(
        'OWNER_STATE',
        entry.id,
        `is ${entry.status} yet holds ${entry.held} ${entry.currency} on ${entry.accountId}`,
      );
    }
  }
}

interface CardAudit {
  present: (marker: string) => boolean;
  applyKnown: (step: LedgerStep) => void;
  add: (account: string, amount: number) => void;
  explained: Set<string>;
  skipped: Set<string>;
  inFlight: string[];
  report: (check: AuditCheck, subject: string, detail: string) => void;
}

/**
 * A card transaction's part. Its decision steps (a hold, or a single-message step, per funding
 * source tried, and their undoing) are known exactly while undecided or declined. Once approved,
 * its funding account and card-holds hold what its totals say (an advice may have re-sized the
 * hold, so the first hold's amount is no longer known); a hold on any other source tried must have
 * been given back.
 */
function auditCard(entry: CardTransactionEntry, audit: CardAudit) {
  const kind = entry.kind ?? 'AUTHORIZATION';
  const sources = entry.sources ?? [entry.accountId];
  const holds = holdsAccount(entry.currency, entry.platformId);
  if (entry.pending || entry.releasing) {
    audit.inFlight.push(entry.id);
    for (const account of [...sources, holds, systemAccount('card-network', entry.currency, entry.platformId)]) {
      audit.skipped.add(account);
    }
  }
  const winning = entry.decision === 'APPROVED' ? sources.indexOf(entry.accountId) : -1;
  for (const [attempt, accountId] of sources.entries()) {
    const move = {
      kind,
      transactionId: entry.id,
      attempt,
      platformId: entry.platformId,
      accountId,
      currency: entry.currency,
      amount: entry.authorizedAmount,
    };
    const step = decisionStep(move);
    const undo = undoDecisionStep(move);
    if (!step || !undo) continue;
    if (attempt === winning) {
      [0, 1].forEach((i) => audit.explained.add(`${step.key}#${i}`));
      const givenBack = undo.postings.some((_, i) => audit.present(markerOf(undo, i)));
      if (givenBack) audit.report('HOLD_OWNER', entry.id, `its approved hold on ${accountId} was also given back`);
      continue;
    }
    audit.applyKnown(step);
    audit.applyKnown(undo);
    const held = audit.present(markerOf(step, 0));
    const givenBack = undo.postings.some((_, i) => audit.present(markerOf(undo, i)));
    if (entry.decision !== 'DECIDING' && !entry.releasing && held !== givenBack) {
      const detail = held
        ? `holds on ${accountId} for a ${entry.decision.toLowerCase()} attempt, never given back`
        : `gave back on ${accountId} a hold never placed`;
      audit.report('HOLD_OWNER', entry.id, detail);
    }
  }
  if (entry.decision !== 'APPROVED' || winning < 0) return;
  // Its events' steps: their markers belong to it, their amounts are in its totals.
  for (let n = 0; n < entry.events; n++) {
    ['0', '1', '2', 'system'].forEach((i) => audit.explained.add(`${entry.id}/event/${n}#${i}`));
  }
  const tx: CardTransaction = entry;
  if (tx.direction === 'CREDIT') {
    audit.add(entry.accountId, tx.settled);
    return;
  }
  audit.add(entry.accountId, -(tx.held + tx.settled - tx.refunded));
  audit.add(holds, tx.held);
}

/**
 * Where the audit reads the ledger and the owners of its steps (every document: an operator's check, not a request's).
 */
export interface LedgerSnapshotSource {
  read(): Promise<LedgerSnapshot>;
}

/** The read-only audit operators run (the AuditLedger RPC, `npm run ledger:audit`). */
export function createLedgerAudit(deps: { source: LedgerSnapshotSource }) {
  return { run: async (): Promise<LedgerAuditReport> => auditLedger(await deps.source.read()) };
}

export type LedgerAudit = ReturnType<typeof createLedgerAudit>;
