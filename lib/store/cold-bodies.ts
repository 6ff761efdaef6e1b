import { compressedBody, COMPRESS_FROM_BYTES, type Statements } from './sqlite-statements';

/** At most this many bodies compressed by one commit: a burst of evictions does not hold up one group. */
const COMPRESSED_PER_COMMIT = 64;

/**
 * Large bodies are written as plain BSON and deflated once their document has left the cache. The
 * documents written most often (a busy balance, taken by every posting; a payment moving through its
 * states, rewritten again by the outbox relay after each) stay in the cache, so each is deflated once,
 * when it goes cold, not at every write: deflating costs about as much CPU as encoding the BSON.
 *
 * A cold body is rewritten compressed, its content unchanged, by the next group commit, in that
 * commit's transaction (GroupCommit's `beforeCommit`). A body this process did not write plain
 * (read from the file, or written before a restart) is left as it is until it is next written. With
 * no cache, a body is compressed by the commit of its own write. Both sets are bounded by the cache's
 * capacity: should documents go cold faster than commits compress them, the excess stays plain.
 */
export class ColdBodies {
  /** Rows this process wrote with a large plain body, still cached. */
  private readonly plain = new Set<number>();
  /** Such rows that have left the cache: compressed by the next commit. */
  private readonly cold = new Set<number>();

  /** `cacheDocuments`: the cache's capacity, which bounds both sets (a row past it is left plain). */
  constructor(private readonly s: Statements, private readonly cacheDocuments: number) {}

  /** A committed write stored row `seq` plain, `bytes` long; its document is now cached. */
  written(seq: number, bytes: number): void {
    this.cold.delete(seq);
    this.plain.delete(seq);
    if (bytes < COMPRESS_FROM_BYTES) return;
    if (this.cacheDocuments > 0) this.plain.add(seq);
    else this.goneCold(seq);
  }

  /** The cache let row `seq` go. */
  evicted(seq: number): void {
    if (this.plain.delete(seq)) this.goneCold(seq);
  }

  private goneCold(seq: number): void {
    if (this.cold.size < Math.max(this.cacheDocuments, COMPRESSED_PER_COMMIT)) this.cold.add(seq);
  }

  deleted(seq: number): void {
    this.plain.delete(seq);
    this.cold.delete(seq);
  }

  /** The group's transaction was lost, and the cache emptied with it. */
  lost(): void {
    this.plain.clear();
    this.cold.clear();
  }

  /** Compresses the cold bodies, up to COMPRESSED_PER_COMMIT; inside the group's open transaction. */
  compress(): void {
    let done = 0;
    for (const seq of this.cold) {
      if (done++ === COMPRESSED_PER_COMMIT) return;
      this.cold.delete(seq);
      const body = this.s.bodyOf.get(seq) as Buffer | undefined;
      const compressed = body && compressedBody(body);
      if (compressed) this.s.replace.run(compressed, seq);
    }
  }
}
