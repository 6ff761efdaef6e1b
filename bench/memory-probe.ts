import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';
import { isMainThread, threadId } from 'node:worker_threads';

/**
 * Preloaded into the system process by the scale benchmark's live phase (`NODE_OPTIONS=--require`,
 * which Node also runs in every worker thread): each thread appends its own V8 heap figures to
 * MEMORY_PROBE_FILE once a second, one JSON line per thread, so the benchmark can tell the
 * JavaScript heap of each thread from what the process holds natively (resident minus the heaps).
 * When the file `<MEMORY_PROBE_FILE>.snapshot` names a tag, each thread writes a heap snapshot
 * once per tag beside it (`heap-<tag>-<thread>.heapsnapshot`; bench/heap-summary.ts sums one).
 */
const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const thread = isMainThread ? 'main' : `thread-${threadId}`;
  const trigger = `${file}.snapshot`;
  const taken = new Set<string>();
  const sample = () => {
    const { heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    try {
      appendFileSync(
        file,
        `${JSON.stringify({ thread, at: Date.now(), heapTotal, heapUsed, external, arrayBuffers })}\n`,
      );
      const tag = existsSync(trigger) ? readFileSync(trigger, 'utf8').trim() : '';
      if (tag && !taken.has(tag)) {
        taken.add(tag);
        writeHeapSnapshot(`${file.replace(/[^/]*$/, '')}heap-${tag}-${thread}.heapsnapshot`);
        appendFileSync(file, `${JSON.stringify({ thread, snapshot: tag })}\n`);
      }
    } catch {
      // the benchmark removed its directory: the process is being stopped
    }
  };
  setInterval(sample, 1_000).unref();
}
