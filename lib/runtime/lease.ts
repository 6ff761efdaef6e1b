import { randomUUID } from 'node:crypto';
import { DuplicateKeyError, type Doc, type DocumentCollection, type DocumentStore } from '../store/document-store';

/** The collection, in each service's own store, holding one document per lease. */
export const LEASES_COLLECTION = '_leases';

/** How long a lease holds without renewal: a replica that dies holding it is replaced after this. */
export const DEFAULT_LEASE_MS = 15_000;

interface LeaseDoc extends Doc {
  holder: string;
  /** Epoch ms after which any replica may take the lease. */
  until: number;
}

/**
 * A named, expiring lease over the store: the one replica holding it runs the work it guards
 * (a worker pass), renews it while working, and gives it back when it stops. A replica that dies
 * holding it is replaced once `until` passes. Taking and renewing are one conditional write
 * ("held by me, or lapsed"), so two replicas never both hold it; a lapsed holder finds out at
 * its next renewal. The lease only keeps replicas from duplicating effort: the writes of the
 * work it guards stay conditional, so a holder that lost it mid-pass still changes nothing twice.
 * Replicas' clocks must agree to well within `ttlMs`.
 */
export interface Lease {
  readonly name: string;
  readonly holder: string;
  readonly ttlMs: number;
  /** Takes the lease, or renews it if held; true while this replica holds it. */
  acquire(): Promise<boolean>;
  /** True while held and not past its expiry as last written. */
  isHeld(): boolean;
  /** Gives the lease back (if held), so another replica takes it without waiting for expiry. */
  release(): Promise<void>;
}

export interface LeaseOptions {
  collection: DocumentCollection;
  name: string;
  ttlMs?: number;
  /** Identifies this replica (default: a random id per lease). */
  holder?: string;
  clock?: () => number;
}

export function createLease(options: LeaseOptions): Lease {
  const collection = options.collection as unknown as DocumentCollection<LeaseDoc>;
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_MS;
  const holder = options.holder ?? randomUUID();
  const clock = options.clock ?? Date.now;
  let heldUntil = 0;

  return {
    name: options.name,
    holder,
    ttlMs,
    async acquire() {
      const now = clock();
      // Renewed less than a third of its lifetime ago: still ours, no write needed (polls stay cheap).
      if (heldUntil - now > (2 * ttlMs) / 3) return true;
      try {
        const doc = await collection.findOneAndUpdate(
          { _id: options.name, $or: [{ holder }, { until: { $lt: now } }] },
          { $set: { holder, until: now + ttlMs } },
          { upsert: true, returnDocument: 'after' },
        );
        heldUntil = doc?.holder === holder ? now + ttlMs : 0;
      } catch (err) {
        // The lease document exists and is someone else's: the upsert's insert collided.
        if (!(err instanceof DuplicateKeyError)) throw err;
        heldUntil = 0;
      }
      return heldUntil > 0;
    },
    isHeld: () => heldUntil > clock(),
    async release() {
      if (heldUntil === 0) return;
      heldUntil = 0;
      await collection.updateOne({ _id: options.name, holder }, { $set: { until: 0 } });
    },
  };
}

/** The lease factory a service's workers share: one collection in the service's store, one holder id per replica. */
export function leasesIn(store: DocumentStore, options: { ttlMs?: number; holder?: string } = {}) {
  const collection = store.collection(LEASES_COLLECTION);
  const holder = options.holder ?? randomUUID();
  return (name: string): Lease =>
    createLease({ collection, name, holder, ...(options.ttlMs ? { ttlMs: options.ttlMs } : {}) });
}

/**
 * Runs `work` if this replica holds (or can take) the lease, renewing it every third of its
 * lifetime until `work` settles; resolves `{ ran: false }` without running when another replica holds it.
 */
export async function underLease<T>(
  lease: Lease,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  if (!(await lease.acquire())) return { ran: false };
  const renewal = setInterval(() => {
    lease.acquire().catch(() => undefined);
  }, Math.max(10, Math.floor(lease.ttlMs / 3)));
  renewal.unref();
  try {
    return { ran: true, value: await work() };
  } finally {
    clearInterval(renewal);
  }
}
