import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeepAliveClient } from './keep-alive-client';
import { runLoad, runOpenLoad, type LoadResult, type OpenLoadResult } from './load-loop';
import { cpuByThread } from './system-process';

/**
 * Quote create + execute throughput on the embedded default, beside the lookup's throughput and
 * a bare Express JSON endpoint, all measured in the same run at the same concurrent clients. Two more
 * loads frame it: two lookups per operation (what any two-request operation through the gateway
 * costs at least) and a quote created with `immediatelyExecute` (create + execute in one request). The
 * system runs in its own process (as `npm start` runs it) so the load generator does not share
 * its event loop. An agent case runs the same create + execute through the agent routes (Bearer token,
 * policy checks and limits counted) in the same run, reported as a ratio to the platform's. Each load is run once
 * unmeasured first: what is measured is the steady state, not V8 compiling the code paths.
 *
 * Every measured load reports the cores the system kept busy: its process's CPU time (all threads,
 * from /proc) ÷ the load's wall time; create + execute also by thread (`main` is the gateway, each
 * service's thread by its name, `other` V8's and libuv's helpers), to show which thread is the ceiling.
 * Options:
 * - the concurrent clients: `npm run bench -- payments --clients 64`, or BENCH_CLIENTS=64 (default 32);
 * - BENCH_SYSTEM_CPUS=0 (a `taskset` CPU list: `0`, `0,1`, `0-7`): the system processes run on those
 *   CPUs only, the load generator anywhere; what one core gives against two, on one machine.
 */
const CLIENTS = benchClients();

/** `--clients N` after the benchmark's name, else BENCH_CLIENTS, else 32. */
export function benchClients(argv = process.argv, env = process.env): number {
  const at = argv.indexOf('--clients');
  const wanted = at >= 0 ? argv[at + 1] : env.BENCH_CLIENTS;
  if (wanted === undefined || wanted === '') return 32;
  const clients = Number(wanted);
  if (!Number.isInteger(clients) || clients < 1) {
    throw new Error(`the client count must be a whole number above 0, got "${wanted}"`);
  }
  return clients;
}

/** BENCH_SYSTEM_CPUS: pins a system process (every thread, and those it starts later) to those CPUs. */
export function pinToBenchCpus(pid: number, cpus = process.env.BENCH_SYSTEM_CPUS?.trim()): void {
  if (cpus) execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' });
}

/** The platform's USD daily volume for the run: far above what the run sends, so no payment is refused for it. */
const BENCH_DAILY_VOLUME = 1_000_000_000_000;
const FUNDING = 10_000_000_000;
const AUTH = `Basic ${Buffer.from('sandbox-token:sandbox-secret-0000000000').toString('base64')}`;

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A Node script to start, with its arguments, environment and Node flags, served once `probe` answers on `port`. */
export interface ServerLaunch {
  script: string;
  args: string[];
  port: number;
  probe: string;
  env?: NodeJS.ProcessEnv;
  nodeArgs?: string[];
}

export async function spawnAndWait(
  { script, args, port, probe, env = {}, nodeArgs = [] }: ServerLaunch,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: 'ignore',
  });
  // Until served (503 while starting): a busy machine can take many seconds.
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const ok = await fetch(`http://127.0.0.1:${port}${probe}`, { headers: { authorization: AUTH } }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`${script} did not start`);
}

export const client = (base: string) => createKeepAliveClient(base, { authorization: AUTH });

export async function preparePayments(api: ReturnType<typeof client>) {
  const config = await api('PATCH', '/config', { limits: [{ currency: 'USD', dailyVolume: BENCH_DAILY_VOLUME }] });
  if (config.status !== 200) throw new Error(`PATCH /config answered ${config.status}`);
  const terms = await api('GET', '/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const customer = await api('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `bench-${Date.now()}`,
    fullName: 'Bench Payer',
    email: 'bench@example.com',
    endUserTermsConsent: consent,
  });
  const accounts = await api(
    'GET',
    `/customers/internal-accounts?customerId=${customer.body.id}&type=INTERNAL_FIAT&currency=USD`,
  );
  const source = accounts.body.data[0].id as string;
  await api('POST', `/sandbox/internal-accounts/${source}/fund`, { amount: FUNDING });
  const payee = await api('POST', '/customers/external-accounts', {
    customerId: customer.body.id,
    currency: 'MXN',
    accountInfo: {
      accountType: 'MXN_ACCOUNT',
      clabeNumber: '032180000118359719',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Lopez' },
    },
  });
  return { customerId: customer.body.id as string, source, payee: payee.body.id as string };
}

/** A load with the system's CPU during it: time per operation, and cores kept busy (CPU time ÷ wall time). */
export interface MeasuredLoad extends LoadResult {
  cpuMsPerOperation: number;
  coresBusy: number;
}

export interface PaymentsBenchmarkResult {
  clients: number;
  /**
   * The machine's cores, the CPUs the systems were pinned to (BENCH_SYSTEM_CPUS, else all), and its 1-minute load
   * average at the start.
   */
  machine: { cores: number; systemCpus: string; loadAverage: number };
  bareExpress: MeasuredLoad;
  lookup: MeasuredLoad;
  /** Two lookups back to back per operation: the floor of any operation made of two requests through the gateway. */
  twoLookups: MeasuredLoad;
  quoteCreateExecute: MeasuredLoad;
  /** Cores each thread kept busy during create + execute. */
  coresBusyByThread: Record<string, number>;
  /** One request: `POST /quotes` with `immediatelyExecute`. */
  quoteImmediatelyExecuted: MeasuredLoad;
  /** Create + execute by an agent (Bearer token, policy in AUTO mode, limits counted) through /agents/me/quotes. */
  agentQuoteCreateExecute: MeasuredLoad;
  /**
   * Agent create + execute per second / platform create + execute per second: what the agent's auth and policy cost.
   */
  agentToPlatform: number;
  /** Create + execute on a second system keeping its data in memory only (DATA_DIR=:memory:). */
  quoteCreateExecuteInMemory: MeasuredLoad;
  /** The system's CPU time (every thread) per create + execute during the measured load. */
  cpuMsPerCreateExecute: number;
  /** The same for two lookups (the two-request floor) and for the agent's create + execute. */
  cpuMsPerTwoLookups: number;
  cpuMsPerAgentCreateExecute: number;
  /** CPU per create + execute / CPU per two lookups (target <= 1.5). */
  createExecuteCpuToTwoLookupsCpu: number;
  /**
   * Create + execute at fixed arrival rates (open loop): latency percentiles at 50 and 100 offered per second, and the
   * highest rate with p99 < 100 ms.
   */
  openLoop: OpenLoopResult;
  /** Durable create + execute per second / in-memory create + execute per second: what durability costs. */
  durableToInMemory: number;
  /** create+execute operations per second / lookups per second (target >= 1/3). */
  createExecuteToLookup: number;
  immediatelyExecutedToLookup: number;
  /** How much of the two-request floor create + execute reaches. */
  createExecuteToTwoLookups: number;
  lookupToBareExpress: number;
  /** After every load: the source's balance is its funding less exactly what the executed quotes sent. */
  ledger: { executedPayments: number; expectedBalance: number; balance: number };
}

/** CPU time (user + system, all threads) the process has used so far, in ms; Linux clock ticks are 10 ms. */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Waits (at most 60 s) until the system uses under a fifth of a core: payments settle in stages
 * after their answer (SANDBOX_SETTLEMENT_STEP_MS), so a faster load before this one, or an
 * overloaded open-loop step, leaves settlement work that would otherwise be counted to this load.
 */
async function settled(pid: number): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const before = cpuMsOf(pid);
    await new Promise((r) => setTimeout(r, 1_000));
    if (cpuMsOf(pid) - before < 200) return;
  }
}

/** A measured load once the system is idle (see settled), with its CPU time per completed operation. */
async function measureWithCpu(pid: number, operation: () => Promise<boolean>, durationMs: number, warmupMs: number) {
  await settled(pid);
  return measureThreads(pid, operation, durationMs, warmupMs);
}

/**
 * Runs the load unmeasured for `warmupMs`, then measured for `durationMs`, with the process's CPU in all and by thread.
 */
async function measureThreads(pid: number, operation: () => Promise<boolean>, durationMs: number, warmupMs: number) {
  await runLoad({ clients: CLIENTS, durationMs: warmupMs, operation });
  const [before, threadsBefore, started] = [cpuMsOf(pid), cpuByThread(pid), performance.now()];
  const result = await runLoad({ clients: CLIENTS, durationMs, operation });
  const [spent, threadsAfter, wallMs] = [cpuMsOf(pid) - before, cpuByThread(pid), performance.now() - started];
  const byThread = Object.fromEntries(
    Object.entries(threadsAfter).map((
      [name, ms],
    ) => [name, Number(((ms - (threadsBefore[name] ?? 0)) / wallMs).toFixed(2))]),
  );
  const measured: MeasuredLoad = {
    ...result,
    cpuMsPerOperation: Number((spent / Math.max(1, result.operations)).toFixed(3)),
    coresBusy: Number((spent / wallMs).toFixed(2)),
  };
  return { result: measured, cpuMsPerOperation: measured.cpuMsPerOperation, byThread };
}

const ratio = (a: LoadResult, b: LoadResult) => Number((a.perSecond / b.perSecond).toFixed(3));

/** Reads the source's balance after the run and checks it to the unit: money is exact under load. */
async function checkLedger(api: ReturnType<typeof client>, customerId: string, sent: number[]) {
  const accounts = await api(
    'GET',
    `/customers/internal-accounts?customerId=${customerId}&type=INTERNAL_FIAT&currency=USD`,
  );
  const balance = accounts.body.data[0].balance.amount as number;
  const expectedBalance = FUNDING - sent.reduce((sum, amount) => sum + amount, 0);
  if (balance !== expectedBalance) {
    throw new Error(`the source holds ${balance}, expected ${expectedBalance} after ${sent.length} payments`);
  }
  return { executedPayments: sent.length, expectedBalance, balance };
}

/** Runs the load unmeasured for `warmupMs`, then measured for `durationMs`, with the CPU of process `pid` during it. */
async function measure(
  pid: number,
  operation: () => Promise<boolean>,
  durationMs: number,
  warmupMs: number,
): Promise<MeasuredLoad> {
  return (await measureThreads(pid, operation, durationMs, warmupMs)).result;
}

export async function runPaymentsBenchmark(
  { durationMs = 10_000, warmupMs = 5_000 } = {},
): Promise<PaymentsBenchmarkResult> {
  const root = join(__dirname, '..');
  const barePort = await freePort();
  const machine = {
    cores: availableParallelism(),
    systemCpus: process.env.BENCH_SYSTEM_CPUS?.trim() || 'all',
    loadAverage: Number(loadavg()[0].toFixed(2)),
  };
  const bareScript = join(root, 'bench', 'bare-express-server.js');
  const bare = await spawnAndWait({ script: bareScript, args: [], port: barePort, probe: '/ping' });
  pinToBenchCpus(bare.pid!);
  const ping = client(`http://127.0.0.1:${barePort}`);
  const bareExpress = await measure(
    bare.pid!,
    async () => (await ping('GET', '/ping')).status === 200,
    durationMs,
    warmupMs,
  );
  bare.kill('SIGTERM');

  // The default for people: data durable on disk (a data directory of the run's own).
  const dataDir = mkdtempSync(join(tmpdir(), 'grid-bench-'));
  const port = await freePort();
  const system = await spawnAndWait({
    script: join(root, 'main.js'),
    args: ['all'],
    port,
    probe: '/2025-10-13/customers?limit=1',
    env: { DATA_DIR: dataDir, GATEWAY_RATE_LIMIT_REQUESTS: '100000000' },
  });
  try {
    pinToBenchCpus(system.pid!);
    const api = client(`http://127.0.0.1:${port}/2025-10-13`);
    const { customerId, source, payee } = await preparePayments(api);
    const lookupOnce = async () =>
      (await api('GET', `/receiver/external-account/${payee}?customerId=${customerId}`)).status === 200;
    const quoteRequest = (immediatelyExecute: boolean) =>
      api('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: source },
        destination: { destinationType: 'ACCOUNT', accountId: payee },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        ...(immediatelyExecute ? { immediatelyExecute } : {}),
      });
    const sent: number[] = [];
    const lookup = await measure(system.pid!, lookupOnce, durationMs, warmupMs);
    const twoLookupsMeasured = await measureWithCpu(
      system.pid!,
      async () => (await lookupOnce()) && lookupOnce(),
      durationMs,
      warmupMs,
    );
    const twoLookups = twoLookupsMeasured.result;
    const createExecute = await measureWithCpu(
      system.pid!,
      () => createAndExecute(api, quoteRequest, sent),
      durationMs,
      warmupMs,
    );
    const openLoop = await measureOpenLoop(() => createAndExecute(api, quoteRequest, sent));
    const quoteCreateExecute = createExecute.result;
    const quoteImmediatelyExecuted = await measure(
      system.pid!,
      async () => {
        const quote = await quoteRequest(true);
        if (quote.status === 201) sent.push(quote.body.totalSendingAmount);
        return quote.status === 201 && quote.body.status === 'PROCESSING';
      },
      durationMs,
      warmupMs,
    );
    const agentApi = await connectAgent(api, `http://127.0.0.1:${port}/2025-10-13`, customerId);
    const agentMeasured = await measureWithCpu(
      system.pid!,
      () => agentCreateAndExecute(agentApi, source, payee, sent),
      durationMs,
      warmupMs,
    );
    const agentQuoteCreateExecute = agentMeasured.result;
    const ledger = await checkLedger(api, customerId, sent);
    system.kill('SIGTERM');
    const quoteCreateExecuteInMemory = await measureInMemory(root, durationMs, warmupMs);
    return {
      clients: CLIENTS,
      machine,
      bareExpress,
      lookup,
      twoLookups,
      quoteCreateExecute,
      coresBusyByThread: createExecute.byThread,
      quoteImmediatelyExecuted,
      agentQuoteCreateExecute,
      quoteCreateExecuteInMemory,
      cpuMsPerCreateExecute: createExecute.cpuMsPerOperation,
      cpuMsPerTwoLookups: twoLookupsMeasured.cpuMsPerOperation,
      cpuMsPerAgentCreateExecute: agentMeasured.cpuMsPerOperation,
      createExecuteCpuToTwoLookupsCpu: Number(
        (createExecute.cpuMsPerOperation / twoLookupsMeasured.cpuMsPerOperation).toFixed(3),
      ),
      openLoop,
      agentToPlatform: ratio(agentQuoteCreateExecute, quoteCreateExecute),
      durableToInMemory: ratio(quoteCreateExecute, quoteCreateExecuteInMemory),
      createExecuteToLookup: ratio(quoteCreateExecute, lookup),
      immediatelyExecutedToLookup: ratio(quoteImmediatelyExecuted, lookup),
      createExecuteToTwoLookups: ratio(quoteCreateExecute, twoLookups),
      lookupToBareExpress: ratio(lookup, bareExpress),
      ledger,
    };
  } finally {
    system.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface OpenLoopResult {
  at50: OpenLoadResult;
  at100: OpenLoadResult;
  /** The highest offered rate of the ramp whose p99 stayed under 100 ms with no error (0: none). */
  highestRateUnder100msP99: number;
  ramp: OpenLoadResult[];
}

const OPEN_LOOP_RAMP = [25, 50, 75, 100, 150, 200, 300, 400, 600];

/**
 * Create + execute arriving at fixed rates, lowest first, each for `stepMs` (50 and 100 per second
 * always run); the ramp stops after the first rate whose p99 reaches 100 ms or that sees an error.
 */
async function measureOpenLoop(operation: () => Promise<boolean>, stepMs = 8_000): Promise<OpenLoopResult> {
  const ramp: OpenLoadResult[] = [];
  let highest = 0;
  let overloaded = false;
  for (const rate of OPEN_LOOP_RAMP) {
    if (overloaded && rate > 100) break;
    const result = await runOpenLoad({ ratePerSecond: rate, durationMs: stepMs, operation });
    ramp.push(result);
    const within = result.p99Ms < 100 && result.errors === 0;
    if (within && !overloaded) highest = rate;
    overloaded ||= !within;
    // Let a queue left by an overloaded step drain before the next one.
    if (!within) await new Promise((r) => setTimeout(r, 2_000));
  }
  return {
    at50: ramp.find((r) => r.offeredPerSecond === 50)!,
    at100: ramp.find((r) => r.offeredPerSecond === 100)!,
    highestRateUnder100msP99: highest,
    ramp,
  };
}

/** `npm run bench -- open-loop`: only the open-loop create + execute, on a durable system of its own. */
export async function runOpenLoopBenchmark(): Promise<OpenLoopResult & { cpuMsPerCreateExecuteAt100: number }> {
  const root = join(__dirname, '..');
  const dataDir = mkdtempSync(join(tmpdir(), 'grid-bench-'));
  const port = await freePort();
  const system = await spawnAndWait({
    script: join(root, 'main.js'),
    args: ['all'],
    port,
    probe: '/2025-10-13/customers?limit=1',
    env: { DATA_DIR: dataDir, GATEWAY_RATE_LIMIT_REQUESTS: '100000000' },
  });
  try {
    pinToBenchCpus(system.pid!);
    const api = client(`http://127.0.0.1:${port}/2025-10-13`);
    const { customerId, source, payee } = await preparePayments(api);
    const quoteRequest: QuoteRequest = (immediatelyExecute) =>
      api('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: source },
        destination: { destinationType: 'ACCOUNT', accountId: payee },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        ...(immediatelyExecute ? { immediatelyExecute } : {}),
      });
    const sent: number[] = [];
    // warm-up
    await runLoad({ clients: 8, durationMs: 3_000, operation: () => createAndExecute(api, quoteRequest, sent) });
    const before = cpuMsOf(system.pid!);
    const at100 = await runOpenLoad({
      ratePerSecond: 100,
      durationMs: 8_000,
      operation: () => createAndExecute(api, quoteRequest, sent),
    });
    const cpuMsPerCreateExecuteAt100 = Number(
      ((cpuMsOf(system.pid!) - before) / Math.max(1, at100.operations)).toFixed(3),
    );
    const result = await measureOpenLoop(() => createAndExecute(api, quoteRequest, sent));
    await checkLedger(api, customerId, sent);
    return { ...result, cpuMsPerCreateExecuteAt100 };
  } finally {
    system.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type QuoteRequest = (immediatelyExecute: boolean) => ReturnType<ReturnType<typeof client>>;

async function createAndExecute(
  api: ReturnType<typeof client>,
  quoteRequest: QuoteRequest,
  sent: number[],
): Promise<boolean> {
  const quote = await quoteRequest(false);
  if (quote.status !== 201) return false;
  const executed = await api('POST', `/quotes/${quote.body.id}/execute`);
  if (executed.status === 200) sent.push(quote.body.totalSendingAmount);
  return executed.status === 200;
}

/**
 * An agent of the bench customer, AUTO, limits far above the run, connected by redeeming its device code: its Bearer
 * client.
 */
export async function connectAgent(api: ReturnType<typeof client>, base: string, customerId: string) {
  const created = await api('POST', '/agents', {
    name: 'Bench agent',
    customerId,
    policy: {
      permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 1_000_000, dailyLimit: null, monthlyLimit: null },
    },
  });
  if (created.status !== 201) throw new Error(`POST /agents answered ${created.status}`);
  const redeemed = await createKeepAliveClient(base)(
    'POST',
    `/agents/device-codes/${created.body.deviceCode.code}/redeem`,
  );
  if (redeemed.status !== 200) throw new Error(`redeem answered ${redeemed.status}`);
  return createKeepAliveClient(base, { authorization: `Bearer ${redeemed.body.accessToken}` });
}

export async function agentCreateAndExecute(
  agentApi: ReturnType<typeof client>,
  source: string,
  payee: string,
  sent: number[],
): Promise<boolean> {
  const quote = await agentApi('POST', '/agents/me/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: payee },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1000,
  });
  if (quote.status !== 201) return false;
  const action = await agentApi('POST', `/agents/me/quotes/${quote.body.id}/execute`);
  if (action.status === 200 && action.body.status === 'APPROVED') sent.push(quote.body.totalSendingAmount);
  return action.status === 200 && action.body.status === 'APPROVED';
}

/**
 * The same create + execute load on a system that keeps nothing on disk: the baseline durability is measured against.
 */
async function measureInMemory(root: string, durationMs: number, warmupMs: number): Promise<MeasuredLoad> {
  const port = await freePort();
  const system = await spawnAndWait({
    script: join(root, 'main.js'),
    args: ['all'],
    port,
    probe: '/2025-10-13/customers?limit=1',
    env: { DATA_DIR: ':memory:', GATEWAY_RATE_LIMIT_REQUESTS: '100000000' },
  });
  try {
    pinToBenchCpus(system.pid!);
    const api = client(`http://127.0.0.1:${port}/2025-10-13`);
    const { customerId, source, payee } = await preparePayments(api);
    const quoteRequest: QuoteRequest = (immediatelyExecute) =>
      api('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: source },
        destination: { destinationType: 'ACCOUNT', accountId: payee },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        ...(immediatelyExecute ? { immediatelyExecute } : {}),
      });
    const sent: number[] = [];
    const result = await measure(system.pid!, () => createAndExecute(api, quoteRequest, sent), durationMs, warmupMs);
    await checkLedger(api, customerId, sent);
    return result;
  } finally {
    system.kill('SIGTERM');
  }
}
