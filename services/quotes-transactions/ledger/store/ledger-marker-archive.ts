import type { DocumentCollection, DocumentStore } from '../../../../lib/store/document-store';
import { legacyForgottenBefore, voidMarker, type BalanceDoc } from './ledger-balance-document';

/** Markers moved out of one balance document together; every one was applied by `appliedThrough`. */
type ArchiveDoc = { _id: string; balance: string; markers: string[]; appliedThrough: number };

export const ARCHIVE_COLLECTION = 'ledger_posting_archive';
/**
 * A balance document whose waiting markers reach this many is archived: each posting rewrites the whole document, so it
 * is kept small (64 markers ≈ 2.5 KB against ≈ 9.5 KB at 256).
 */
export const ARCHIVE_AT = 64;
/**
 * Markers stay at least this long: the steps still applying them keep the one-write path. A busy
 * account's document holds what it was posted over this age and one settlement poll, and each
 * posting rewrites all of it, so the age is a few times a step's duration, not more.
 */
export const ARCHIVE_MIN_AGE_MS = 250;

/**
 * Moves posting markers out of busy balance documents, so a document stays small while every
 * marker stays findable. A pass notes which markers a document holds; a pass at least
 * ARCHIVE_MIN_AGE_MS later moves those still there, copying them to the archive before they leave.
 * The notes live in memory: a restarted process only archives a little later.
 */
export function createMarkerArchive(store: DocumentStore, balances: DocumentCollection<BalanceDoc>, clock: () => Date) {
  const archive = store.collection<ArchiveDoc>(ARCHIVE_COLLECTION);
  let seen = new Map<string, { at: number; markers: Set<string> }>();

  async function moveOut(id: string, markers: string[], appliedThrough: number, doc: BalanceDoc): Promise<void> {
    await archive.updateOne(
      { _id: `${id}|${markers[0]}` },
      { $setOnInsert: { balance: id }, $addToSet: { markers: { $each: markers } }, $max: { appliedThrough } },
      { upsert: true },
    );
    // A document written before the archive never counted its window: its count ends up that much low.
    const forgotten = legacyForgottenBefore(doc);
    // Another pass that moved the first of them moved them all: then this one changes nothing.
    await balances.updateOne({ _id: id, applied: markers[0] }, {
      $pullAll: { applied: markers },
      $max: { archivedUpTo: appliedThrough },
      $inc: { unarchived: -markers.length },
      ...(doc.appliedAt ? { $unset: { appliedAt: '' } } : {}),
      ...(forgotten !== undefined ? { $set: { forgottenBefore: forgotten } } : {}),
    });
  }

  /**
   * Archives what this document held when last seen long enough ago; notes what it holds now. The
   * note's time is taken once the document is read, never before: a marker in it may belong to a
   * step that started after the pass did, and `appliedThrough` must not precede any step's start,
   * or a replay of that step would take the archive for not holding its marker and apply it again.
   * (Replicas on several hosts rely on their clocks agreeing to well within ARCHIVE_MIN_AGE_MS.)
   */
  async function visit(id: string, next: typeof seen): Promise<void> {
    const doc = await balances.findOne({ _id: id }, { projection: { applied: 1, appliedAt: 1 } });
    if (!doc) return;
    const now = clock().getTime();
    const before = seen.get(id);
    if (before && before.at <= now - ARCHIVE_MIN_AGE_MS) {
      const moving = (doc.applied ?? []).filter((m) => before.markers.has(m));
      if (moving.length > 0) await moveOut(id, moving, before.at, doc);
      next.set(id, { at: now, markers: new Set((doc.applied ?? []).filter((m) => !before.markers.has(m))) });
    } else {
      next.set(id, before ?? { at: now, markers: new Set(doc.applied ?? []) });
    }
  }

  return {
    collection: archive,
    async ensureIndexes() {
      await balances.createIndex({ keys: { unarchived: 1 } });
      await archive.createIndex({ keys: { balance: 1, markers: 1 } });
      await archive.createIndex({ keys: { balance: 1, appliedThrough: 1 } });
    },
    /** Whether the archive holds the marker or its void: searched only where a marker applied since `since` can be. */
    async find(id: string, marker: string, since: number): Promise<'ALREADY_APPLIED' | 'VOIDED' | undefined> {
      const found = await archive.findOne(
        { balance: id, appliedThrough: { $gte: since }, markers: { $in: [marker, voidMarker(marker)] } },
        { projection: { markers: 1 } },
      );
      if (!found) return undefined;
      return found.markers.includes(marker) ? 'ALREADY_APPLIED' : 'VOIDED';
    },
    /** One pass over the busy documents; answers how many it visited. */
    async pass(limit = 100): Promise<number> {
      const due = await balances.find({ unarchived: { $gte: ARCHIVE_AT } }, { limit, projection: { _id: 1 } });
      const next = new Map<string, { at: number; markers: Set<string> }>();
      for (const { _id } of due) await visit(_id, next);
      seen = next;
      return due.length;
    },
  };
}
