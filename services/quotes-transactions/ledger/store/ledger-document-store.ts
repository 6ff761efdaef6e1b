import { createHash } from 'node:crypto';
import { withEvents } from '../../../../lib/bus/outbox';
import { DuplicateKeyError, type DocumentStore, type Filter } from '../../../../lib/store/document-store';
import { isGuarded, type LedgerStep } from '../domain/ledger-postings';
import type { BalanceRecord, LedgerStore, PostingResult } from '../app/ledger-store';
import { LEGACY_WINDOW, legacyForgottenBefore, voidMarker, type BalanceDoc } from './ledger-balance-document';
import { createMarkerArchive } from './ledger-marker-archive';

type JournalDoc = { _id: string; platformId: string; step: LedgerStep; startedAt: string; done: boolean };

export const BALANCES_COLLECTION = 'ledger_balances';
export const JOURNAL_COLLECTION = 'ledger_journal';
export { ARCHIVE_AT, ARCHIVE_COLLECTION, ARCHIVE_MIN_AGE_MS } from './ledger-marker-archive';

/** An archive pass moving markers makes a posting that raced it look again; bounded all the same. */
const MAX_ATTEMPTS = 8;

/** System accounts (counter-accounts, credited by every payment) are spread over documents. */
export const SYSTEM_SHARDS = 16;

/** A balance read leaves the posting markers behind: they are most of the document. */
const BALANCE_FIELDS = { account: 1, platformId: 1, currency: 1, available: 1 } as const;
const MARKER_FIELDS = {
  currency: 1,
  available: 1,
  applied: 1,
  archivedUpTo: 1,
  forgottenBefore: 1,
  appliedAt: 1,
  closed: 1,
} as const;

const shardOf = (marker: string) => createHash('sha256').update(marker).digest().readUInt16BE(0) % SYSTEM_SHARDS;

function documentId(account: string, marker: string): string {
  if (isGuarded(account)) return account;
  return `${account}#${shardOf(marker)}`;
}

/** Where a step's system postings go together: one of the platform's shards, by the step's marker. */
const systemDocumentId = (platformId: string, marker: string) => `ledger-system:${platformId}#${shardOf(marker)}`;

/** An account's member in a system document (`sums.<key>`): account names may hold dots. */
const memberKey = (account: string) => Buffer.from(account).toString('base64url');

/**
 * The balances one document holds: one account's, or for a system document (`system: true`)
 * each of its accounts' share. Audits and tests that read `ledger_balances` directly go through it.
 */
export function balanceRecordsOf(doc: Partial<BalanceDoc>): BalanceRecord[] {
  if (!doc.system) {
    return [{ account: doc.account!, platformId: doc.platformId!, currency: doc.currency!, available: doc.available! }];
  }
  return Object.entries(doc.sums ?? {}).map(([key, available]) => ({
    account: Buffer.from(key, 'base64url').toString(),
    platformId: doc.platformId!,
    currency: doc.currencies![key],
    available,
  }));
}

/** Nothing the document forgot can be a marker applied since `since`. */
const remembersSince = (since: number): Filter[] => [
  { $or: [{ forgottenBefore: { $exists: false } }, { forgottenBefore: { $lte: since } }] },
  { $or: [{ [`appliedAt.${LEGACY_WINDOW - 1}`]: { $exists: false } }, { 'appliedAt.0': { $lte: since } }] },
];

/**
 * The conditions under which the marker's absence from the document proves the posting never
 * applied. `horizon` undefined: nothing was archived since the step started (the usual case);
 * otherwise the `archivedUpTo` the archive was searched against, so that a pass moving more
 * markers in the meantime makes the write miss and the search run again.
 */
function provenUnapplied(marker: string, since: number, horizon: number | null | undefined): Filter {
  const archived = horizon === undefined
    ? { $or: [{ archivedUpTo: { $exists: false } }, { archivedUpTo: { $lt: since } }] }
    : { archivedUpTo: horizon === null ? { $exists: false } : horizon };
  return { applied: { $nin: [marker, voidMarker(marker)] }, $and: [archived, ...remembersSince(since)] };
}

type Outcome = Exclude<PostingResult, 'APPLIED'> | { horizon: number | null };

/** A posting's conditional write that missed, on balance document `id`; `credit` must stay within `ceiling`. */
interface MissedWrite {
  id: string;
  currency?: string;
  marker: string;
  since: number;
  shortOf?: number;
  refusedIfClosed?: boolean;
  credit?: { amount: number; ceiling: number };
}

export function createLedgerDocumentStore(store: DocumentStore, clock: () => Date = () => new Date()) {
  const balances = store.collection<BalanceDoc>(BALANCES_COLLECTION);
  const journal = store.collection<JournalDoc>(JOURNAL_COLLECTION);
  const archive = createMarkerArchive(store, balances, clock);
  const remember = (marker: string) => ({ $push: { applied: marker }, $inc: { unarchived: 1 } });

  /**
   * After a conditional write missed: the posting's fate, or the horizon to write against once the
   * archive is known not to hold it. `shortOf`: the debit the balance must cover (guarded postings).
   */
  async function outcomeOf(
    { id, currency, marker, since, shortOf, refusedIfClosed = false, credit }: MissedWrite,
  ): Promise<Outcome> {
    const doc = await balances.findOne({ _id: id }, { projection: MARKER_FIELDS });
    if (!doc) return shortOf === undefined ? { horizon: null } : 'INSUFFICIENT_FUNDS';
    if (currency !== undefined && doc.currency !== currency) {
      throw new Error(`ledger account ${id} holds ${doc.currency}, not ${currency}`);
    }
    const applied = doc.applied ?? [];
    if (applied.includes(marker)) return 'ALREADY_APPLIED';
    if (applied.includes(voidMarker(marker))) return 'VOIDED';
    const horizon = doc.archivedUpTo ?? null;
    const archived = horizon !== null && horizon >= since ? await archive.find(id, marker, since) : undefined;
    if (archived) return archived;
    const forgotten = doc.forgottenBefore ?? legacyForgottenBefore(doc);
    if (forgotten !== undefined && forgotten > since) return 'UNCERTAIN';
    if (shortOf !== undefined && doc.available < shortOf) return 'INSUFFICIENT_FUNDS';
    if (refusedIfClosed && doc.closed) return 'CLOSED';
    if (credit && doc.available > credit.ceiling - credit.amount) return 'OUT_OF_RANGE';
    return { horizon };
  }

  /** One conditional write of the posting; true when it applied. */
  async function write(
    input: Parameters<LedgerStore['apply']>[0],
    id: string,
    horizon: number | null | undefined,
  ): Promise<boolean> {
    const { platformId, posting, marker, guarded, events, since } = input;
    const { $push, $inc } = remember(marker);
    const update = withEvents({ $inc: { ...$inc, available: posting.amount }, $push }, events);
    const filter = {
      _id: id,
      currency: posting.currency,
      ...provenUnapplied(marker, since, horizon),
      ...(input.refusedIfClosed ? { closed: { $ne: true } } : {}),
      // A new document starts at the amount itself, which assertValidStep keeps within the ceiling.
      ...(input.ceiling !== undefined && posting.amount > 0
        ? { available: { $lte: input.ceiling - posting.amount } }
        : {}),
    };
    if (guarded) {
      return (await balances.updateOne({ ...filter, available: { $gte: -posting.amount } }, update)).matchedCount === 1;
    }
    try {
      const result = await balances.updateOne(filter, {
        ...update,
        $setOnInsert: { account: posting.account, platformId },
      }, { upsert: true });
      return result.modifiedCount === 1 || result.upsertedId !== undefined;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false; // created concurrently by another posting
      throw err;
    }
  }

  const ledger: LedgerStore & { ensureIndexes(): Promise<void> } = {
    async ensureIndexes() {
      await journal.createIndex({ keys: { done: 1, startedAt: 1 } });
      await balances.createIndex({ keys: { platformId: 1, account: 1 } });
      await archive.ensureIndexes();
    },
    async apply(input) {
      const id = documentId(input.posting.account, input.marker);
      const shortOf = input.guarded ? -input.posting.amount : undefined;
      let horizon: number | null | undefined;
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        if (await write(input, id, horizon)) return 'APPLIED';
        const credit = input.ceiling !== undefined && input.posting.amount > 0
          ? { amount: input.posting.amount, ceiling: input.ceiling }
          : undefined;
        const outcome = await outcomeOf({
          id,
          currency: input.posting.currency,
          marker: input.marker,
          since: input.since,
          shortOf,
          refusedIfClosed: input.refusedIfClosed,
          credit,
        });
        if (typeof outcome === 'string') return outcome;
        horizon = outcome.horizon;
      }
      return 'UNCERTAIN';
    },
    async applySystem({ platformId, postings, marker, since }) {
      const id = systemDocumentId(platformId, marker);
      const sums: Record<string, number> = {};
      const currencies: Record<string, string> = {};
      for (const posting of postings) {
        const key = memberKey(posting.account);
        sums[`sums.${key}`] = (sums[`sums.${key}`] ?? 0) + posting.amount;
        currencies[`currencies.${key}`] = posting.currency;
      }
      const { $push, $inc } = remember(marker);
      const update = {
        $inc: { ...$inc, ...sums },
        $push,
        $set: currencies,
        $setOnInsert: { platformId, system: true },
      };
      let horizon: number | null | undefined;
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        try {
          const result = await balances.updateOne({ _id: id, ...provenUnapplied(marker, since, horizon) }, update, {
            upsert: true,
          });
          if (result.modifiedCount === 1 || result.upsertedId !== undefined) return 'APPLIED';
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err; // else: created concurrently, or the marker is in
        }
        const outcome = await outcomeOf({ id, marker, since });
        if (outcome === 'ALREADY_APPLIED' || outcome === 'UNCERTAIN') return outcome;
        if (typeof outcome === 'string') throw new Error(`system postings ${marker} found ${outcome}`);
        horizon = outcome.horizon;
      }
      return 'UNCERTAIN';
    },
    async void({ platformId, posting, marker, since }) {
      const id = documentId(posting.account, marker);
      try {
        // The document must exist to hold the void marker, or a later replay could still debit.
        await balances.updateOne({ _id: id }, {
          $setOnInsert: { account: posting.account, platformId, currency: posting.currency, available: 0 },
        }, { upsert: true });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      let horizon: number | null | undefined;
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        if (
          (await balances.updateOne(
            { _id: id, ...provenUnapplied(marker, since, horizon) },
            remember(voidMarker(marker)),
          )).matchedCount === 1
        ) return 'VOIDED';
        const outcome = await outcomeOf({ id, currency: posting.currency, marker, since });
        const refusal = outcome === 'INSUFFICIENT_FUNDS' || outcome === 'CLOSED' || outcome === 'OUT_OF_RANGE';
        if (typeof outcome === 'string') return refusal ? 'UNCERTAIN' : outcome;
        horizon = outcome.horizon;
      }
      return 'UNCERTAIN';
    },
    async close(platformId, account, currency) {
      try {
        await balances.updateOne({ _id: account }, { $setOnInsert: { account, platformId, currency, available: 0 } }, {
          upsert: true,
        });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      return (await balances.updateOne({ _id: account, platformId, available: 0 }, { $set: { closed: true } }))
        .matchedCount === 1;
    },
    async reopen(platformId, account) {
      await balances.updateOne({ _id: account, platformId }, { $unset: { closed: '' } });
    },
    archivePostings: (limit) => archive.pass(limit),
    async balances(accounts, platformId) {
      const docs = await balances.find({
        _id: { $in: accounts.filter(isGuarded) },
        ...(platformId ? { platformId } : {}),
      }, { projection: BALANCE_FIELDS });
      return docs.map((d) => ({
        account: d.account,
        platformId: d.platformId,
        currency: d.currency,
        available: d.available,
      }));
    },
    async all() {
      const sums = new Map<string, { account: string; platformId: string; currency: string; available: number }>();
      for (
        const d of (await balances.find({}, { projection: { ...BALANCE_FIELDS, system: 1, sums: 1, currencies: 1 } }))
          .flatMap(balanceRecordsOf)
      ) {
        const sum = sums.get(d.account) ?? { ...d, available: 0 };
        sum.available += d.available;
        sums.set(d.account, sum);
      }
      return [...sums.values()];
    },
    async journal(platformId, step, now) {
      try {
        await journal.insertOne({ _id: step.key, platformId, step, startedAt: now, done: false });
        return now;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        const earlier = await journal.findOne({ _id: step.key });
        if (!earlier) throw err;
        return earlier.startedAt;
      }
    },
    async markJournaled(key) {
      await journal.updateOne({ _id: key }, { $set: { done: true } });
    },
    async unfinishedJournal(startedBefore, limit) {
      const docs = await journal.find({ done: false, startedAt: { $lte: startedBefore } }, {
        limit,
        sort: { startedAt: 1 },
      });
      return docs.map((d) => ({ platformId: d.platformId, step: d.step, startedAt: d.startedAt }));
    },
  };
  return { ledger, collection: balances, archive: archive.collection };
}
