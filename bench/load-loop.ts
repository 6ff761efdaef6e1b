/**
 * A closed-loop load generator: `clients` workers each run `operation` back to back for
 * `durationMs`. Reports throughput and latency percentiles of whole operations (an operation
 * may be several HTTP requests, e.g. quote create + execute).
 */
export interface LoadResult {
  operations: number;
  errors: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export async function runLoad(options: { clients: number; durationMs: number; operation: () => Promise<boolean> }): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + options.durationMs;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (Date.now() < deadline) {
      const t0 = process.hrtime.bigint();
      const ok = await options.operation().catch(() => false);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (!ok) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: options.clients }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    operations: latencies.length,
    errors,
    perSecond: Number((latencies.length / seconds).toFixed(1)),
    p50Ms: Number(at(0.5).toFixed(2)),
    p99Ms: Number(at(0.99).toFixed(2)),
  };
}
