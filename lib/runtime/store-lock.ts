import { closeSync, openSync, readFileSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** How often the holder touches its lock, and how old an untouched lock must be to count as abandoned. */
export const LOCK_REFRESH_MS = 5_000;
export const LOCK_ABANDONED_AFTER_MS = 30_000;

export interface StoreLock {
  release(): void;
}

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

/** Locks taken by this process (a worker thread's are its own module instance, so keyed by path). */
const heldHere = new Set<string>();

/**
 * The embedded store is single-replica: one process owns a service's files in DATA_DIR. The owner
 * writes `<file>` (pid, host) exclusively and touches it every few seconds. Another process on the
 * same files is refused, with the owner named, while the owner lives; a lock whose process is gone
 * (same host: no such pid, or our own pid from a previous life, as pid 1 in a restarted container),
 * or that nobody touched for 30 s (any host), is stale and reclaimed.
 */
export function lockStoreFiles(file: string, service: string): StoreLock {
  if (heldHere.has(file)) throw refused(service, file, { pid: process.pid, host: hostname(), since: 'now' });
  for (let attempt = 0;; attempt++) {
    const fd = tryCreate(file);
    if (fd !== undefined) {
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
      closeSync(fd);
      break;
    }
    const owner = readOwner(file);
    if (owner && !isStale(file, owner)) throw refused(service, file, owner);
    if (attempt >= 3) throw refused(service, file, owner ?? { pid: 0, host: 'unknown', since: 'unknown' });
    rmSync(file, { force: true }); // stale: reclaim it (a racing reclaimer loses the exclusive create)
  }
  heldHere.add(file);
  const touch = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(file, now, now);
    } catch { /* removed by an operator: the next start re-creates it */ }
  }, LOCK_REFRESH_MS).unref();
  return {
    release() {
      if (!heldHere.delete(file)) return;
      clearInterval(touch);
      if (readOwner(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}

function tryCreate(file: string): number | undefined {
  try {
    return openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw err;
  }
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' ? owner : undefined;
  } catch {
    return undefined; // half-written or gone: treated as stale
  }
}

function isStale(file: string, owner: LockOwner): boolean {
  let touchedAt: number;
  try {
    touchedAt = statSync(file).mtimeMs;
  } catch {
    return true;
  }
  if (Date.now() - touchedAt > LOCK_ABANDONED_AFTER_MS) return true;
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return true; // this pid cannot be two live processes: a previous life's
  return !processExists(owner.pid);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
}

/** Another process holds a service's embedded store: this one does not start (exit 1, one line). */
export class StoreLockedError extends Error {
  constructor(readonly service: string, readonly file: string, readonly owner: LockOwner) {
    super(
      `${file} is in use by another process: the embedded store serves one `
        + `replica (${service} is held by pid ${owner.pid} on ${owner.host}; `
        + 'stop the other process, or give this one its own DATA_DIR; run several replicas on MONGODB_URI)',
    );
    this.name = 'StoreLockedError';
  }
}

function refused(service: string, file: string, owner: LockOwner): StoreLockedError {
  return new StoreLockedError(service, file, owner);
}
