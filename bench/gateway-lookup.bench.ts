import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad, type LoadResult } from './load-loop';
import { client, cpuMsOf, freePort, preparePayments, spawnAndWait } from './payments-throughput.bench';

/**
 * `npm run bench -- lookup`: what the gateway and one gRPC hop cost per request. A lookup
 * (`GET /receiver/external-account/{id}`: REST → one gRPC read → REST JSON) against the bare
 * Express JSON answer, throughput and CPU per request of each in the same run, and the system's
 * CPU split by thread (the gateway's is the main thread, the services' the busiest other one).
 * `BENCH_NODE_ARGS` are given to the system's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
const CLIENTS = 32;

/** CPU (user + system, ms) of each thread of a process, by thread id. */
function threadCpuMs(pid: number): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      cpu.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch { /* the thread ended */ }
  }
  return cpu;
}

interface CpuSplit {
  total: number;
  gatewayThread: number;
  servicesThread: number;
  otherThreads: number;
}

/** CPU per operation over a measured load, split: main thread, busiest other thread, the rest (GC helpers, libuv). */
function splitPerOperation(
  pid: number,
  before: Map<number, number>,
  after: Map<number, number>,
  operations: number,
): CpuSplit {
  const used = [...after].map(([tid, ms]) => [tid, ms - (before.get(tid) ?? 0)] as const);
  const main = used.find(([tid]) => tid === pid)?.[1] ?? 0;
  const others = used.filter(([tid]) => tid !== pid).map(([, ms]) => ms).sort((a, b) => b - a);
  const per = (ms: number) => Number((ms / Math.max(1, operations)).toFixed(3));
  const rest = others.slice(1).reduce((a, b) => a + b, 0);
  return {
    total: per(main + (others[0] ?? 0) + rest),
    gatewayThread: per(main),
    servicesThread: per(others[0] ?? 0),
    otherThreads: per(rest),
  };
}

const totalOf = (cpu: Map<number, number>) => [...cpu.values()].reduce((a, b) => a + b, 0);

/**
 * The process's CPU per second with no request (timers, relays, the store's housekeeping), so the
 * CPU per request can also be given net of it: on a busy machine fewer requests complete per
 * second, and that background would otherwise weigh more on each.
 */
async function idleCpuMsPerSecond(pid: number, ms = 3_000): Promise<number> {
  const before = totalOf(threadCpuMs(pid));
  await new Promise((resolve) => setTimeout(resolve, ms));
  return Number(((totalOf(threadCpuMs(pid)) - before) / (ms / 1000)).toFixed(1));
}

async function measured(pid: number, operation: () => Promise<boolean>, durationMs: number, warmupMs: number) {
  await runLoad({ clients: CLIENTS, durationMs: warmupMs, operation });
  const idle = await idleCpuMsPerSecond(pid);
  const before = threadCpuMs(pid);
  const started = Date.now();
  const result = await runLoad({ clients: CLIENTS, durationMs, operation });
  const after = threadCpuMs(pid);
  const netOfIdle = (totalOf(after) - totalOf(before) - (idle * (Date.now() - started)) / 1000)
    / Math.max(1, result.operations);
  return {
    result,
    idleCpuMsPerSecond: idle,
    cpuMsPerRequest: {
      ...splitPerOperation(pid, before, after, result.operations),
      netOfIdle: Number(netOfIdle.toFixed(3)),
    },
  };
}

export interface GatewayLookupResult {
  bareExpress: LoadResult & { cpuMsPerRequest: number };
  lookup: LoadResult & { cpuMsPerRequest: CpuSplit & { netOfIdle: number }; idleCpuMsPerSecond: number };
  lookupToBareExpress: number;
  /** CPU per lookup / CPU per bare Express answer. */
  lookupCpuToBareCpu: number;
}

export async function runGatewayLookupBenchmark(
  { durationMs = 10_000, warmupMs = 5_000 } = {},
): Promise<GatewayLookupResult> {
  const root = join(__dirname, '..');
  const barePort = await freePort();
  const bareScript = join(root, 'bench', 'bare-express-server.js');
  const bare = await spawnAndWait({ script: bareScript, args: [], port: barePort, probe: '/ping' });
  let bareExpress: GatewayLookupResult['bareExpress'];
  try {
    const ping = client(`http://127.0.0.1:${barePort}`);
    const bareRun = await measured(
      bare.pid!,
      async () => (await ping('GET', '/ping')).status === 200,
      durationMs,
      warmupMs,
    );
    bareExpress = { ...bareRun.result, cpuMsPerRequest: bareRun.cpuMsPerRequest.total };
  } finally {
    bare.kill('SIGTERM');
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'grid-bench-'));
  const port = await freePort();
  const system = await spawnAndWait({
    script: join(root, 'main.js'),
    args: ['all'],
    port,
    probe: '/2025-10-13/customers?limit=1',
    env: { DATA_DIR: dataDir, GATEWAY_RATE_LIMIT_REQUESTS: '100000000' },
    nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean),
  });
  try {
    const api = client(`http://127.0.0.1:${port}/2025-10-13`);
    const { customerId, payee } = await preparePayments(api);
    const lookupRun = await measured(
      system.pid!,
      async () => (await api('GET', `/receiver/external-account/${payee}?customerId=${customerId}`)).status === 200,
      durationMs,
      warmupMs,
    );
    const lookup = {
      ...lookupRun.result,
      cpuMsPerRequest: lookupRun.cpuMsPerRequest,
      idleCpuMsPerSecond: lookupRun.idleCpuMsPerSecond,
    };
    return {
      bareExpress,
      lookup,
      lookupToBareExpress: Number((lookup.perSecond / bareExpress.perSecond).toFixed(3)),
      lookupCpuToBareCpu: Number(
        (lookup.cpuMsPerRequest.total / Math.max(0.001, bareExpress.cpuMsPerRequest)).toFixed(2),
      ),
    };
  } finally {
    system.kill('SIGTERM');
    // A profiled system writes its profiles on exit: give it the time.
    if (system.exitCode === null && system.signalCode === null) {
      await new Promise((resolve) => system.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
