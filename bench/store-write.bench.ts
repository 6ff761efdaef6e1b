import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore } from '../lib/store/document-store';
import { createDurableDocumentStore } from '../lib/store/durable-document-store';
import { createEmbeddedDocumentStore } from '../lib/store/embedded-document-store';

/**
 * What durability costs per write: a payment-sized document inserted and then updated (a status
 * change with its event, as a payment step does), on the in-memory engine and on the durable one
 * (SQLite journal, synchronous=NORMAL and FULL), in the same run.
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
}

function paymentDocument(i: number) {
  return {
    _id: `Transaction:${String(i).padStart(12, '0')}`, platformId: 'Platform:1', status: 'PENDING', version: 1, type: 'OUTGOING',
    source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1', currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1', currency: 'MXN' },
    sent: { amount: 10_000, currency: 'USD' }, received: { amount: 172_327, currency: 'MXN' }, createdAt: new Date().toISOString(), _outbox: [],
  };
}

async function usPerWrite(store: DocumentStore): Promise<number> {
  const payments = store.collection('payments');
  await payments.createIndex({ keys: { platformId: 1, createdAt: -1 } });
  const started = process.hrtime.bigint();
  for (let i = 0; i < WRITES / 2; i++) {
    await payments.insertOne(paymentDocument(i));
    await payments.updateOne({ _id: `Transaction:${String(i).padStart(12, '0')}`, version: 1 }, { $set: { status: 'PROCESSING', version: 2 }, $push: { _outbox: { id: `Event:${i}`, type: 'OUTGOING_PAYMENT.PROCESSING' } } });
  }
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
    return {
      writes: WRITES, inMemoryUsPerWrite, durableUsPerWrite, durableFullSyncUsPerWrite,
      durableToInMemory: Number((durableUsPerWrite / inMemoryUsPerWrite).toFixed(2)),
      durableFullSyncToInMemory: Number((durableFullSyncUsPerWrite / inMemoryUsPerWrite).toFixed(2)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
