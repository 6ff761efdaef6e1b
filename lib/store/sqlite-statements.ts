import type Database from 'better-sqlite3';
import { BSON } from 'bson';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Doc } from './document-store';

/** A stored document with its insertion position (the row's rowid, kept across updates). */
export interface StoredDoc {
  seq: number;
  key: string;
  doc: Doc;
}

/** The prepared statements of the SQLite engine, shared by every collection of one store file. */
export function prepareStatements(db: Database.Database) {
  const prepare = (sql: string) => db.prepare(sql);
  return {
    byKey: prepare('SELECT rowid AS seq, body FROM documents WHERE collection = ? AND key = ?'),
    bySeq: prepare('SELECT key, body FROM documents WHERE rowid = ? AND collection = ?'),
    scan: prepare('SELECT rowid AS seq, key, body FROM documents WHERE collection = ? ORDER BY rowid'),
    scanPage: prepare(
      'SELECT rowid AS seq, body FROM documents WHERE collection = ? AND rowid > ? ORDER BY rowid LIMIT 500',
    ),
    count: prepare('SELECT count(*) AS n FROM documents WHERE collection = ?').pluck(),
    insert: prepare('INSERT INTO documents (collection, key, body) VALUES (?, ?, ?)'),
    replace: prepare('UPDATE documents SET body = ? WHERE rowid = ?'),
    bodyOf: prepare('SELECT body FROM documents WHERE rowid = ?').pluck(),
    remove: prepare('DELETE FROM documents WHERE rowid = ?'),

    indexes: prepare('SELECT name, spec FROM store_indexes WHERE collection = ? ORDER BY rowid'),
    addIndex: prepare('INSERT INTO store_indexes (collection, name, spec) VALUES (?, ?, ?)'),

    addField: prepare('INSERT OR IGNORE INTO field_entries (collection, path, value, seq) VALUES (?, ?, ?, ?)'),
    removeField: prepare('DELETE FROM field_entries WHERE collection = ? AND path = ? AND value = ? AND seq = ?'),
    fieldSeqs: prepare('SELECT seq FROM field_entries WHERE collection = ? AND path = ? AND value = ?').pluck(),
    /** How many entries a value has, counted no further than the cap (enough to pick the narrowest plan). */
    fieldSize: prepare(
      'SELECT count(*) FROM (SELECT 1 FROM field_entries WHERE collection = ? AND path = ? AND value = ? LIMIT ?)',
    ).pluck(),
    hasValue: prepare('SELECT 1 FROM field_entries WHERE collection = ? AND path = ? AND value = ? LIMIT 1').pluck(),
    /** Documents holding a value at a path and, for index i, at i more paths. */
    countMatching: [0, 1, 2, 3].map((more) =>
      prepare(
        `SELECT count(*) FROM field_entries a WHERE a.collection = ? AND a.path = ? AND a.value = ?${
          Array.from({ length: more }, (_, i) =>
            ` AND EXISTS (SELECT 1 FROM field_entries b${i} WHERE b${i}.collection = `
            + `a.collection AND b${i}.path = ? AND b${i}.value = ? AND b${i}.seq = a.seq)`)
            .join('')
        }`,
      ).pluck()
    ),

    addUnique: prepare('INSERT INTO unique_entries (collection, name, value, key) VALUES (?, ?, ?, ?)'),
    removeUnique: prepare('DELETE FROM unique_entries WHERE collection = ? AND name = ? AND value = ? AND key = ?'),
    uniqueOwner: prepare('SELECT key FROM unique_entries WHERE collection = ? AND name = ? AND value = ?').pluck(),

    addSort: prepare(
      'INSERT OR IGNORE INTO sort_entries (collection, idx, lead, sort_key, seq) VALUES (?, ?, ?, ?, ?)',
    ),
    removeSort: prepare(
      'DELETE FROM sort_entries WHERE collection = ? AND idx = ? AND lead = ? AND sort_key = ? AND seq = ?',
    ),
    /** A walk of the sort entries of one leading value within a half-open key range [low, high). */
    sortAscending: prepare(
      'SELECT seq, sort_key AS sortKey FROM sort_entries WHERE collection = ? AND '
        + 'idx = ? AND lead = ? AND sort_key >= ? AND sort_key < ? ORDER BY sort_key ASC',
    ),
    sortDescending: prepare(
      'SELECT seq, sort_key AS sortKey FROM sort_entries WHERE collection = ? AND '
        + 'idx = ? AND lead = ? AND sort_key >= ? AND sort_key < ? ORDER BY sort_key DESC',
    ),
    /** The same for several leading values (a JSON array). */
    sortManyAscending: prepare(
      'SELECT seq, sort_key AS sortKey FROM sort_entries WHERE collection = ? AND idx = ? AND lead '
        + 'IN (SELECT value FROM json_each(?)) AND sort_key >= ? AND sort_key < ? ORDER BY sort_key ASC',
    ),
    sortManyDescending: prepare(
      'SELECT seq, sort_key AS sortKey FROM sort_entries WHERE collection = ? AND idx = ? AND lead '
        + 'IN (SELECT value FROM json_each(?)) AND sort_key >= ? AND sort_key < ? ORDER BY sort_key DESC',
    ),
    /** How many sort entries such a walk holds, counted no further than the cap (the last argument); -1: all. */
    sortCount: prepare(
      'SELECT count(*) FROM (SELECT 1 FROM sort_entries WHERE collection = ? AND idx = ? AND '
        + 'lead IN (SELECT value FROM json_each(?)) AND sort_key >= ? AND sort_key < ? LIMIT ?)',
    ).pluck(),
    /** A running count of the sort entries under one leading value (store format 5): moved with each entry. */
    moveSortCount: prepare(
      'INSERT INTO sort_counts (collection, idx, lead, n) VALUES (?, ?, ?, ?) '
        + 'ON CONFLICT (collection, idx, lead) DO UPDATE SET n = n + excluded.n',
    ),
    /** The sort entries under several leading values (a JSON array), from their running counts. */
    sortCountAll: prepare(
      'SELECT coalesce(sum(n), 0) FROM sort_counts WHERE collection = ? AND idx = ? '
        + 'AND lead IN (SELECT value FROM json_each(?))',
    ).pluck(),
    pendingSortBuilds: prepare('SELECT idx FROM sort_builds WHERE collection = ?').pluck(),
    doneSortBuild: prepare('DELETE FROM sort_builds WHERE collection = ? AND idx = ?'),
    sortIrregular: prepare(
      "SELECT 1 FROM sort_entries WHERE collection = ? AND idx = ? AND lead = ? AND sort_key = '' LIMIT 1",
    ).pluck(),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

/** Bodies of at least this many BSON bytes are stored compressed once cold (cold-bodies.ts; store format 3). */
export const COMPRESS_FROM_BYTES = 1_024;
/** Starts a compressed body: a BSON document starts with its length, never 0. */
const COMPRESSED = Buffer.alloc(4);

/** A document as written: its BSON (deflated later, once it leaves the cache: cold-bodies.ts). */
export function encodeDocument(doc: Doc): Uint8Array {
  return BSON.serialize(doc);
}

/**
 * A large plain body as stored compressed: four zero bytes and the BSON deflated (level 1: about half the bytes of a
 * payment for ≈20 µs, and a document of half the size leaves half the slack in the pages it grows into, see
 * docs/embedded-store.md). Undefined for a small body or one already compressed.
 */
export function compressedBody(body: Buffer): Buffer | undefined {
  if (body.length < COMPRESS_FROM_BYTES || body.readInt32LE(0) === 0) return undefined;
  // A 4 KB window: a payment compresses as well as with the default 32 KB, and zlib sets up an eighth of the state per
  // call.
  return Buffer.concat([COMPRESSED, deflateRawSync(body, { level: 1, windowBits: 12 })]);
}

export function decodeDocument(body: Buffer): Doc {
  const bson = body.readInt32LE(0) === 0 ? inflateRawSync(body.subarray(4)) : body;
  return BSON.deserialize(bson, { promoteBuffers: true }) as Doc;
}
