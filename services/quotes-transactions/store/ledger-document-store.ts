import { withEvents } from '../../../lib/bus/outbox';
import { DuplicateKeyError, type DocumentStore } from '../../../lib/store/document-store';
import type { LedgerStep } from '../domain/ledger-postings';
import type { LedgerStore } from '../app/ledger-store';

type BalanceDoc = { _id: string; platformId: string; currency: string; available: number; applied: string[] };
type JournalDoc = { _id: string; platformId: string; step: LedgerStep; startedAt: string; done: boolean };

export const BALANCES_COLLECTION = 'ledger_balances';
export const JOURNAL_COLLECTION = 'ledger_journal';

/**
 * Markers of the last postings kept per balance document. A replay is recognised while its
 * marker is within this window; steps are finished within seconds (or by the recovery worker
 * within a minute), far inside 10,000 later postings on the same account.
 */
export const APPLIED_WINDOW = 10_000;

const voidMarker = (marker: string) => `${marker}!void`;

export function createLedgerDocumentStore(store: DocumentStore) {
  const balances = store.collection<BalanceDoc>(BALANCES_COLLECTION);
  const journal = store.collection<JournalDoc>(JOURNAL_COLLECTION);
  const remember = (marker: string) => ({ applied: { $each: [marker], $slice: -APPLIED_WINDOW } });

  async function seed(account: string, platformId: string, currency: string): Promise<void> {
    try {
      await balances.updateOne({ _id: account }, { $setOnInsert: { platformId, currency, available: 0, applied: [] } }, { upsert: true });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  async function outcomeOf(account: string, currency: string, marker: string) {
    const doc = await balances.findOne({ _id: account });
    if (doc && doc.currency !== currency) throw new Error(`ledger account ${account} holds ${doc.currency}, not ${currency}`);
    if (doc?.applied.includes(marker)) return 'ALREADY_APPLIED' as const;
    if (doc?.applied.includes(voidMarker(marker))) return 'VOIDED' as const;
    return 'INSUFFICIENT_FUNDS' as const;
  }

  const ledger: LedgerStore & { ensureIndexes(): Promise<void> } = {
    async ensureIndexes() {
      await journal.createIndex({ keys: { done: 1, startedAt: 1 } });
      await balances.createIndex({ keys: { platformId: 1 } });
    },
    async apply({ platformId, posting, marker, guarded, events }) {
      const { account, currency, amount } = posting;
      const update = withEvents({ $inc: { available: amount }, $push: remember(marker) }, events);
      if (guarded) {
        const filter = { _id: account, currency, available: { $gte: -amount }, applied: { $nin: [marker, voidMarker(marker)] } };
        if (await balances.findOneAndUpdate(filter, update)) return 'APPLIED';
        return outcomeOf(account, currency, marker);
      }
      await seed(account, platformId, currency);
      const result = await balances.updateOne({ _id: account, currency, applied: { $ne: marker } }, update);
      if (result.modifiedCount === 1) return 'APPLIED';
      const outcome = await outcomeOf(account, currency, marker);
      if (outcome !== 'ALREADY_APPLIED') throw new Error(`posting ${marker} neither applied nor refused`);
      return outcome;
    },
    async void({ platformId, posting, marker }) {
      // The document must exist to hold the void marker, or a later replay could still debit.
      await seed(posting.account, platformId, posting.currency);
      const result = await balances.updateOne({ _id: posting.account, applied: { $ne: marker } }, { $push: remember(voidMarker(marker)) });
      return result.modifiedCount === 1 ? 'VOIDED' : 'ALREADY_APPLIED';
    },
    async balances(accounts, platformId) {
      const docs = await balances.find({ _id: { $in: accounts }, ...(platformId ? { platformId } : {}) });
      return docs.map((d) => ({ account: d._id, platformId: d.platformId, currency: d.currency, available: d.available }));
    },
    async all() {
      const docs = await balances.find({});
      return docs.map((d) => ({ account: d._id, platformId: d.platformId, currency: d.currency, available: d.available }));
    },
    async journal(platformId, step, now) {
      await journal.insertOne({ _id: step.key, platformId, step, startedAt: now, done: false });
    },
    async markJournaled(key) {
      await journal.updateOne({ _id: key }, { $set: { done: true } });
    },
    async unfinishedJournal(startedBefore, limit) {
      const docs = await journal.find({ done: false, startedAt: { $lte: startedBefore } }, { limit, sort: { startedAt: 1 } });
      return docs.map((d) => ({ platformId: d.platformId, step: d.step }));
    },
  };
  return { ledger, collection: balances };
}
