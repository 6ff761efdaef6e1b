import { createHash } from 'node:crypto';
import { withEvents } from '../../../lib/bus/outbox';
import { DuplicateKeyError, type DocumentStore } from '../../../lib/store/document-store';
import { isGuarded, type LedgerStep } from '../domain/ledger-postings';
import type { LedgerStore, PostingResult } from '../app/ledger-store';

/** `applied[i]` is a posting marker, `appliedAt[i]` when it was applied (epoch ms); both keep the same window. */
type BalanceDoc = { _id: string; account: string; platformId: string; currency: string; available: number; applied: string[]; appliedAt: number[] };
type JournalDoc = { _id: string; platformId: string; step: LedgerStep; startedAt: string; done: boolean };

export const BALANCES_COLLECTION = 'ledger_balances';
export const JOURNAL_COLLECTION = 'ledger_journal';

/**
 * Markers of the latest postings kept per balance document, each with the time it was applied.
 * A posting is applied only while the window still reaches back to the start of its step
 * (`appliedAt.0 ≤ since`, or the window is not full): then a missing marker proves the posting
 * was never applied. Past that, the store answers UNCERTAIN instead of guessing.
 */
export const APPLIED_WINDOW = 2_000;

/** System accounts (counter-accounts, credited by every payment) are spread over documents. */
export const SYSTEM_SHARDS = 16;

const voidMarker = (marker: string) => `${marker}!void`;

/** A balance read leaves the posting markers behind: they are most of the document. */
const BALANCE_FIELDS = { account: 1, platformId: 1, currency: 1, available: 1 } as const;

function documentId(account: string, marker: string): string {
  if (isGuarded(account)) return account;
  const shard = createHash('sha256').update(marker).digest().readUInt16BE(0) % SYSTEM_SHARDS;
  return `${account}#${shard}`;
}

export function createLedgerDocumentStore(store: DocumentStore, clock: () => Date = () => new Date()) {
  const balances = store.collection<BalanceDoc>(BALANCES_COLLECTION);
  const journal = store.collection<JournalDoc>(JOURNAL_COLLECTION);
  const remember = (m: string) => ({
    applied: { $each: [m], $slice: -APPLIED_WINDOW },
    appliedAt: { $each: [clock().getTime()], $slice: -APPLIED_WINDOW },
  });
  const covers = (since: number) => ({ $or: [{ [`applied.${APPLIED_WINDOW - 1}`]: { $exists: false } }, { 'appliedAt.0': { $lte: since } }] });

  async function outcomeOf(id: string, currency: string, marker: string, since: number): Promise<PostingResult> {
    const doc = await balances.findOne({ _id: id });
    if (doc && doc.currency !== currency) throw new Error(`ledger account ${doc.account} holds ${doc.currency}, not ${currency}`);
    if (doc?.applied.includes(marker)) return 'ALREADY_APPLIED';
    if (doc?.applied.includes(voidMarker(marker))) return 'VOIDED';
    if (doc && doc.applied.length >= APPLIED_WINDOW && doc.appliedAt[0] > since) return 'UNCERTAIN';
    return 'INSUFFICIENT_FUNDS';
  }

  const ledger: LedgerStore & { ensureIndexes(): Promise<void> } = {
    async ensureIndexes() {
      await journal.createIndex({ keys: { done: 1, startedAt: 1 } });
      await balances.createIndex({ keys: { platformId: 1, account: 1 } });
    },
    async apply({ platformId, posting, marker, guarded, events, since }) {
      const { account, currency, amount } = posting;
      const _id = documentId(account, marker);
      const update = withEvents({ $inc: { available: amount }, $push: remember(marker) }, events);
      if (guarded) {
        const filter = { _id, currency, available: { $gte: -amount }, applied: { $nin: [marker, voidMarker(marker)] }, ...covers(since) };
        if ((await balances.updateOne(filter, update)).matchedCount === 1) return 'APPLIED';
        return outcomeOf(_id, currency, marker, since);
      }
      try {
        const result = await balances.updateOne(
          { _id, currency, applied: { $ne: marker }, ...covers(since) },
          { ...update, $setOnInsert: { account, platformId } },
          { upsert: true },
        );
        if (result.modifiedCount === 1 || result.upsertedId !== undefined) return 'APPLIED';
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      const outcome = await outcomeOf(_id, currency, marker, since);
      // Created concurrently by another posting: try again now that the document exists.
      return outcome === 'INSUFFICIENT_FUNDS' ? ledger.apply({ platformId, posting, marker, guarded, events, since }) : outcome;
    },
    async void({ platformId, posting, marker }) {
      const _id = documentId(posting.account, marker);
      try {
        // The document must exist to hold the void marker, or a later replay could still debit.
        await balances.updateOne({ _id }, { $setOnInsert: { account: posting.account, platformId, currency: posting.currency, available: 0, applied: [], appliedAt: [] } }, { upsert: true });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      const result = await balances.updateOne({ _id, applied: { $ne: marker } }, { $push: remember(voidMarker(marker)) });
      return result.modifiedCount === 1 ? 'VOIDED' : 'ALREADY_APPLIED';
    },
    async balances(accounts, platformId) {
      const docs = await balances.find({ _id: { $in: accounts.filter(isGuarded) }, ...(platformId ? { platformId } : {}) }, { projection: BALANCE_FIELDS });
      return docs.map((d) => ({ account: d.account, platformId: d.platformId, currency: d.currency, available: d.available }));
    },
    async all() {
      const sums = new Map<string, { account: string; platformId: string; currency: string; available: number }>();
      for (const d of await balances.find({}, { projection: BALANCE_FIELDS })) {
        const sum = sums.get(d.account) ?? { account: d.account, platformId: d.platformId, currency: d.currency, available: 0 };
        sum.available += d.available;
        sums.set(d.account, sum);
      }
      return [...sums.values()];
    },
    async journal(platformId, step, now) {
      await journal.insertOne({ _id: step.key, platformId, step, startedAt: now, done: false });
    },
    async markJournaled(key) {
      await journal.updateOne({ _id: key }, { $set: { done: true } });
    },
    async unfinishedJournal(startedBefore, limit) {
      const docs = await journal.find({ done: false, startedAt: { $lte: startedBefore } }, { limit, sort: { startedAt: 1 } });
      return docs.map((d) => ({ platformId: d.platformId, step: d.step, startedAt: d.startedAt }));
    },
  };
  return { ledger, collection: balances };
}
