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

export async function runLoad(
  options: { clients: number; durationMs: number; operation: () => Promise<boolean> },
): Promise<LoadResult> {
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

export interface OpenLoadResult {
  /** Operations started per second, as offered (fixed arrival rate). */
  offeredPerSecond: number;
  /** Operations that completed per second over the run. */
  completedPerSecond: number;
  operations: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * An open-loop load: operations arrive at a fixed rate whether or not earlier ones are done (as
 * payments from many independent users do). Each latency is measured from the operation's
 * scheduled arrival, so a system that falls behind is charged for the queue it builds (no
 * coordinated omission); operations still running at the end are waited for and counted.
 */
export async function runOpenLoad(
  options: { ratePerSecond: number; durationMs: number; operation: () => Promise<boolean> },
): Promise<OpenLoadResult> {
  const intervalMs = 1000 / options.ratePerSecond;
  const total = Math.max(1, Math.round((options.durationMs / 1000) * options.ratePerSecond));
  const latencies: number[] = [];
  let errors = 0;
  const running: Array<Promise<void>> = [];
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    running.push(
      options.operation().catch(() => false).then((ok) => {
        latencies.push(performance.now() - due);
        if (!ok) errors += 1;
      }),
    );
  }
  await Promise.all(running);
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    offeredPerSecond: options.ratePerSecond,
    completedPerSecond: Number((latencies.length / seconds).toFixed(1)),
    operations: latencies.length,
    errors,
    p50Ms: Number(at(0.5).toFixed(2)),
    p99Ms: Number(at(0.99).toFixed(2)),
  };
}
