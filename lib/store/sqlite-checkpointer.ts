import type Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { Worker } from 'node:worker_threads';

/** How long after a commit the checkpoint thread is asked to look at the WAL (one request in flight per file). */
export const CHECKPOINT_DELAY_MS = 200;
/**
 * Pages the WAL must hold beyond what was already copied before the thread copies them (≈8 MB): each
 * checkpoint copies a page once however many commits rewrote it, so checkpointing every 200 ms
 * would copy the hot pages (the tail of documents, the balances, the index leaves) over and over.
 */
export const CHECKPOINT_PAGES = 2_000;

/**
 * The longest a commit that finds the WAL at its limit waits for the thread's checkpoint of the same
 * file to end (it holds the checkpoint lock the commit needs); past it the commit goes on without.
 */
export const CHECKPOINT_WAIT_MS = 10_000;

/**
 * The thread's code, run from source (`eval`) so that it needs no compiled file of its own (jest
 * runs the TypeScript sources). One connection per store file, each opened read-only in effect:
 * it only runs `wal_checkpoint(PASSIVE)`, which copies committed pages from the WAL into the file
 * without waiting for the writer or blocking it.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, openSync, readSync } = require('node:fs');
const Database = require(workerData.driver);
const littleEndian = require('node:os').endianness() === 'LE';
const files = new Map();
// Frames in the WAL not yet copied into the file, from the WAL index (the -shm file, sqlite.org/walformat.html:
// mxFrame at byte 16 of its header, nBackfill at byte 96, in the host's byte order); undefined when unreadable.
const header = Buffer.alloc(100);
function pending(file) {
  try {
    file.shm ??= openSync(file.path + '-shm', 'r');
    if (readSync(file.shm, header, 0, 100, 0) < 100) return undefined;
    const read = (at) => (littleEndian ? header.readUInt32LE(at) : header.readUInt32BE(at));
    return read(16) - read(96);
  } catch { return undefined; }
}
parentPort.on('message', (message) => {
  const { id, open, busy, checkpoint, close } = message;
  if (open) {
    try {
      files.set(id, { path: open, busy, db: new Database(open, { fileMustExist: true, timeout: 0 }) });
    } catch (err) { parentPort.postMessage({ id, failed: String(err && err.message || err) }); }
    return;
  }
  const file = files.get(id);
  if (checkpoint) {
    let result;
    try {
      const frames = file ? pending(file) : 0;
      if (file && (frames === undefined || frames >= workerData.pages)) {
        // Told through shared memory, not a message: a writer at the WAL's limit waits for this checkpoint to end.
        Atomics.store(file.busy, 0, 1);
        try { result = file.db.pragma('wal_checkpoint(PASSIVE)')[0]; } finally {
          Atomics.store(file.busy, 0, 0);
          Atomics.notify(file.busy, 0);
        }
      }
    } catch (err) { result = { failed: String(err && err.message || err) }; }
    parentPort.postMessage({ id, checkpointed: result });
    return;
  }
  if (close) {
    try { if (file) { file.db.close(); if (file.shm !== undefined) closeSync(file.shm); } } catch {}
    files.delete(id);
    parentPort.postMessage({ id, closed: true });
  }
});`;

interface Reply {
  id: number;
  failed?: string;
  checkpointed?: { busy: number; log: number; checkpointed: number };
  closed?: boolean;
}

/** What a store file's checkpoints are told: when it committed, and when it closes. */
export interface CheckpointHandle {
  /**
   * Called after each COMMIT: a checkpoint follows within CHECKPOINT_DELAY_MS, and one runs now on
   * the store's connection when the WAL holds `limitPages` frames (see WalLimit).
   */
  committed(): void;
  /** Closes the thread's connection to the file (before the store's own, which then empties the WAL). */
  close(): Promise<void>;
}

/**
 * WAL checkpoints of the SQLite engine's files, run on a thread of their own with a second
 * connection to each file, so that the thread answering requests does not copy pages inside the
 * commit that filled the WAL (a pause of that request). The store's own connection keeps SQLite's
 * automatic checkpoint at WAL_CHECKPOINT_PAGES as the floor: it finds the pages already copied
 * and only completes the few written since, which lets the next write start the WAL over.
 * The thread starts with the first checkpoint asked for and does not keep the process alive.
 */
class Checkpointer {
  private worker: Worker | undefined;
  private nextId = 1;
  /** Files the current thread holds a connection to. */
  private readonly open = new Set<number>();
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  /** Each attached file's flag: 1 while the thread checkpoints it. */
  private readonly busyFlags = new Map<number, Int32Array>();

  attach(path: string, db: Database.Database, limitPages: number): CheckpointHandle {
    const id = this.nextId++;
    let timer: NodeJS.Timeout | undefined;
    let inFlight = false;
    let closing: Promise<void> | undefined;
    /** 1 while the thread checkpoints this file (it holds the file's checkpoint lock). */
    const busy = new Int32Array(new SharedArrayBuffer(4));
    this.busyFlags.set(id, busy);
    const limit = new WalLimit(path, db, busy, limitPages);
    const request = () => {
      timer = undefined;
      if (closing || inFlight) return;
      const worker = this.thread();
      if (!this.open.has(id)) {
        worker.postMessage({ id, open: path, busy });
        this.open.add(id);
      }
      inFlight = true;
      this.waiting.set(id, () => {
        inFlight = false;
      });
      worker.postMessage({ id, checkpoint: true });
    };
    return {
      committed: () => {
        limit.keep();
        if (closing || timer || inFlight) return;
        timer = setTimeout(request, CHECKPOINT_DELAY_MS).unref();
      },
      close: () => {
        if (timer) clearTimeout(timer);
        limit.close();
        this.busyFlags.delete(id);
        closing ??= this.detach(id);
        return closing;
      },
    };
  }

  private async detach(id: number): Promise<void> {
    const worker = this.worker;
    if (!worker || !this.open.has(id)) return;
    await new Promise<void>((resolve) => {
      this.waiting.set(id, (reply) => {
        if (reply.closed) resolve();
      });
      worker.postMessage({ id, close: true });
    });
    this.waiting.delete(id);
    this.open.delete(id);
    if (this.open.size === 0 && this.worker === worker) {
      this.worker = undefined;
      await worker.terminate();
    }
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), pages: CHECKPOINT_PAGES },
    });
    worker.unref();
    worker.on('message', (reply: Reply) => this.waiting.get(reply.id)?.(reply));
    // A thread that failed leaves the checkpoints to SQLite's automatic one on the store's connection.
    worker.on('error', () => this.forget(worker));
    worker.on('exit', () => this.forget(worker));
    this.worker = worker;
    return worker;
  }

  private forget(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.open.clear();
    // A thread that ended mid-checkpoint holds no lock any more: no writer waits for it.
    for (const busy of this.busyFlags.values()) Atomics.store(busy, 0, 0);
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const answer of waiting) answer({ id: 0, closed: true });
  }
}

/**
 * The WAL's bound. The WAL starts over (its next frame written at its start) only at a write that
 * finds every frame already copied into the file; under a steady load the thread's passive
 * checkpoints never catch the last commit, and SQLite's automatic checkpoint on the store's
 * connection, which does, gives up at once while the thread holds the file's checkpoint lock. So
 * after each COMMIT that leaves `limitPages` frames or more in the WAL with some not yet copied,
 * the store's connection waits (Atomics.wait, at most CHECKPOINT_WAIT_MS) for the thread's
 * checkpoint of this file to end, then copies the rest itself: the next write starts the WAL over.
 * The WAL therefore holds at most `limitPages` frames plus the last group commit's (an explicit
 * checkpoint is what SQLite's automatic one is: PASSIVE, on the writer's connection, after a COMMIT).
 */
class WalLimit {
  private shm: number | undefined;
  private readonly header = Buffer.alloc(100);
  private readonly littleEndian = endianness() === 'LE';

  constructor(
    private readonly path: string,
    private readonly db: Database.Database,
    private readonly busy: Int32Array,
    private readonly limitPages: number,
  ) {}

  keep(): void {
    const frames = this.frames();
    if (!frames || frames.inWal < this.limitPages || frames.copied >= frames.inWal) return;
    Atomics.wait(this.busy, 0, 1, CHECKPOINT_WAIT_MS);
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // The commit stands (the WAL has it); a checkpoint refused (a full disk) is tried again after the next one.
    }
  }

  close(): void {
    if (this.shm !== undefined) closeSync(this.shm);
    this.shm = undefined;
  }

  /**
   * The WAL index's header (-shm, sqlite.org/walformat.html): frames in the WAL (mxFrame), frames copied (nBackfill).
   */
  private frames(): { inWal: number; copied: number } | undefined {
    try {
      this.shm ??= openSync(`${this.path}-shm`, 'r');
      if (readSync(this.shm, this.header, 0, 100, 0) < 100) return undefined;
      const read = (at: number) => (this.littleEndian ? this.header.readUInt32LE(at) : this.header.readUInt32BE(at));
      return { inWal: read(16), copied: read(96) };
    } catch {
      return undefined;
    }
  }
}

/** One checkpoint thread per thread that opens stores (all four services' files share it). */
export const checkpointer = new Checkpointer();
