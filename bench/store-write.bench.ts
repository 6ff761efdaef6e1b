import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore } from '../lib/store/document-store';
import { createEmbeddedDocumentStore } from '../lib/store/embedded-document-store';
import { createSqliteDocumentStore } from '../lib/store/sqlite-document-store';

/**
 * What durability costs per write: a payment-sized document inserted and then updated (a status
 * change with its event, as a payment step does) on the one embedded engine (SQLite), in memory
 * (DATA_DIR=:memory:) and on a file (synchronous=NORMAL and FULL), in the same run: one writer at a
 * time (each write its own commit) and 16 writers at once (the group commit shares one transaction).
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
  /** 16 concurrent writers (requests in flight), group commit. */
  concurrent: {
    writers: number;
    inMemoryUsPerWrite: number;
    sqliteUsPerWrite: number;
    sqliteFullSyncUsPerWrite: number;
    sqliteToInMemory: number;
    sqliteFullSyncToInMemory: number;
  };
}

const WRITERS = 16;

function paymentDocument(i: number) {
  return {
    _id: `Transaction:${String(i).padStart(12, '0')}`,
    platformId: 'Platform:1',
    status: 'PENDING',
    version: 1,
    type: 'OUTGOING',
    source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1', currency: 'USD' },
    destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1', currency: 'MXN' },
    sent: { amount: 10_000, currency: 'USD' },
    received: { amount: 172_327, currency: 'MXN' },
    createdAt: new Date().toISOString(),
    _outbox: [],
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
      await payments.updateOne({ _id: `Transaction:${String(i).padStart(12, '0')}`, version: 1 }, {
        $set: { status: 'PROCESSING', version: 2 },
        $push: { _outbox: { id: `Event:${i}`, type: 'OUTGOING_PAYMENT.PROCESSING' } },
      });
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
    const durableUsPerWrite = await usPerWrite(
      createSqliteDocumentStore({ path: join(dir, 'normal.sqlite'), sync: 'normal' }),
    );
    const durableFullSyncUsPerWrite = await usPerWrite(
      createSqliteDocumentStore({ path: join(dir, 'full.sqlite'), sync: 'full' }),
    );
    const concurrentInMemory = await usPerWrite(createEmbeddedDocumentStore(), WRITERS);
    const concurrentSqlite = await usPerWrite(
      createSqliteDocumentStore({ path: join(dir, 'concurrent.sqlite'), sync: 'normal' }),
      WRITERS,
    );
    const concurrentSqliteFull = await usPerWrite(
      createSqliteDocumentStore({ path: join(dir, 'concurrent-full.sqlite'), sync: 'full' }),
      WRITERS,
    );
    const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
    return {
      writes: WRITES,
      inMemoryUsPerWrite,
      durableUsPerWrite,
      durableFullSyncUsPerWrite,
      durableToInMemory: ratio(durableUsPerWrite, inMemoryUsPerWrite),
      durableFullSyncToInMemory: ratio(durableFullSyncUsPerWrite, inMemoryUsPerWrite),
      concurrent: {
        writers: WRITERS,
        inMemoryUsPerWrite: concurrentInMemory,
        sqliteUsPerWrite: concurrentSqlite,
        sqliteFullSyncUsPerWrite: concurrentSqliteFull,
        sqliteToInMemory: ratio(concurrentSqlite, concurrentInMemory),
        sqliteFullSyncToInMemory: ratio(concurrentSqliteFull, concurrentInMemory),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
