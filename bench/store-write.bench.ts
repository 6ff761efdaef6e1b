import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore } from '../lib/store/document-store';
import { createDurableDocumentStore } from '../lib/store/durable-document-store';
import { createEmbeddedDocumentStore } from '../lib/store/embedded-document-store';
import { createSqliteDocumentStore } from '../lib/store/sqlite-document-store';

/**
 * What durability costs per write: a payment-sized document inserted and then updated (a status
 * change with its event, as a payment step does), on the in-memory engine and on the durable one
 * (SQLite journal, synchronous=NORMAL and FULL), in the same run; then the SQLite engine, one writer
 * at a time and 16 writers at once (its group commit shares one transaction among them).
 */
const WRITES = 20_000;

export interface StoreWriteResult {
  writes: number;
  inMemoryUsPerWrite: number;
  durableUsPerWrite: number;
  durableFullSyncUsPerWrite: number;
  /** Durable (NORMAL) per-write time / in-memory per-write time. */
  durableToInMemory: number;
  durableFullSyncToInMemory: number;
  /** The SQLite engine (documents answered from the file), one writer at a time: each write its own commit. */
  sqliteUsPerWrite: number;
  /** 16 concurrent writers (requests in flight): in memory, and on the SQLite engine with group commit. */
  concurrent: { writers: number; inMemoryUsPerWrite: number; sqliteUsPerWrite: number; sqliteFullSyncUsPerWrite: number; sqliteToInMemory: number; sqliteFullSyncToInMemory: number };
}

const WRITERS = 16;

function paymentDocument(i: number) {
  return {
    _id: `Transaction:${String(i).padStart(12, '0')}`, platformId: 'Platform:1', status: 'PENDING', version: 1, type: 'OUTGOING',
    source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1', currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1', currency: 'MXN' },
    sent: { amount: 10_000, currency: 'USD' }, received: { amount: 172_327, currency: 'MXN' }, createdAt: new Date().toISOString(), _outbox: [],
  };
}

async function usPerWrite(store: DocumentStore, writers = 1): Promise<number> {
  const payments = store.collection('payments');
  await payments.createIndex({ keys: { platformId: 1, createdAt: -1 } });
  const started = process.hrtime.bigint();
  let next = 0;
  const writer = async () => {
    for (let i = next++; i < WRITES / 2; i = next++) {
      await payments.insertOne(paymentDocument(i));
      await payments.updateOne({ _id: `Transaction:${String(i).padStart(12, '0')}`, version: 1 }, { $set: { status: 'PROCESSING', version: 2 }, $push: { _outbox: { id: `Event:${i}`, type: 'OUTGOING_PAYMENT.PROCESSING' } } });
    }
  };
  await Promise.all(Array.from({ length: writers }, writer));
  const us = Number(process.hrtime.bigint() - started) / 1e3 / WRITES;
  await store.close();
  return Number(us.toFixed(2));
}

export async function runStoreWriteBenchmark(): Promise<StoreWriteResult> {
  const dir = mkdtempSync(join(tmpdir(), 'grid-store-bench-'));
  try {
    await usPerWrite(createEmbeddedDocumentStore()); // warm-up: the engine's code compiled before anything is measured
    const inMemoryUsPerWrite = await usPerWrite(createEmbeddedDocumentStore());
    const durableUsPerWrite = await usPerWrite(createDurableDocumentStore({ path: join(dir, 'normal.sqlite'), sync: 'normal' }));
    const durableFullSyncUsPerWrite = await usPerWrite(createDurableDocumentStore({ path: join(dir, 'full.sqlite'), sync: 'full' }));
    const sqliteUsPerWrite = await usPerWrite(createSqliteDocumentStore({ path: join(dir, 'sqlite.sqlite'), sync: 'normal' }));
    const concurrentInMemory = await usPerWrite(createEmbeddedDocumentStore(), WRITERS);
    const concurrentSqlite = await usPerWrite(createSqliteDocumentStore({ path: join(dir, 'sqlite-concurrent.sqlite'), sync: 'normal' }), WRITERS);
    const concurrentSqliteFull = await usPerWrite(createSqliteDocumentStore({ path: join(dir, 'sqlite-full.sqlite'), sync: 'full' }), WRITERS);
    return {
      sqliteUsPerWrite,
      concurrent: {
        writers: WRITERS, inMemoryUsPerWrite: concurrentInMemory, sqliteUsPerWrite: concurrentSqlite, sqliteFullSyncUsPerWrite: concurrentSqliteFull,
        sqliteToInMemory: Number((concurrentSqlite / concurrentInMemory).toFixed(2)),
        sqliteFullSyncToInMemory: Number((concurrentSqliteFull / concurrentInMemory).toFixed(2)),
      },
      writes: WRITES, inMemoryUsPerWrite, durableUsPerWrite, durableFullSyncUsPerWrite,
      durableToInMemory: Number((durableUsPerWrite / inMemoryUsPerWrite).toFixed(2)),
      durableFullSyncToInMemory: Number((durableFullSyncUsPerWrite / inMemoryUsPerWrite).toFixed(2)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
