import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createKeepAliveClient } from './keep-alive-client';
import { prepareScalePayer, type ScalePayer } from './scale-payer';
import { startSystem, stopSystem, type RunningSystem } from './system-process';

/**
 * The scale benchmark's live phase: memory and WAL under sustained real traffic. The real system
 * (`node dist/main.js all`, SQLite engine, a new data directory) takes payments through the REST API
 * (quote with `immediatelyExecute`, 16 in flight, a new customer per 10 payments), none seeded.
 * The process's resident memory (VmRSS) is read at the start and after half and all of the
 * payments (6,000 and 12,000 by default); the growth between the two, per payment, is what a
 * leak would show (the caches are full by then). The WAL files are watched every 50 ms for the
 * largest size any one of them reached. With the probe (bench/memory-probe.ts) each thread's V8
 * heap is read at the same points, so heap growth can be told from native growth.
 *
 * `SCALE_LIVE_PAYMENTS=2000` for a quick run (samples at 1,000 and 2,000); 0 skips the phase.
 * `SCALE_LIVE_HEAP_SNAPSHOTS=<dir>`: each thread also writes a heap snapshot into that directory
 * at both samples (slow; `node dist/bench/heap-summary.js` compares two). Run alone:
 * `node dist/bench/scale-live.js` (after `npm run build`).
 */
const AUTH = `Basic ${Buffer.from('sandbox-token:sandbox-secret-0000000000').toString('base64')}`;
const IN_FLIGHT = 16;
const PAYMENTS_PER_CUSTOMER = 10;
const WAL_POLL_MS = 50;
const MAX_UNAVAILABLE = 100;

export const livePayments = (): number => Number(process.env.SCALE_LIVE_PAYMENTS ?? 12_000);

interface HeapSample {
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface LiveSample {
  payments: number;
  residentMb: number;
  /** The V8 heaps of every thread (the gateway's, the services', the checkpoint thread's), used and reserved. */
  heapUsedMb: number;
  heapTotalMb: number;
  /** Memory V8 knows of outside its heaps (Buffers, ArrayBuffers), all threads. */
  externalMb: number;
  /** Resident memory not in a V8 heap nor counted as external: code, SQLite's caches, malloc. */
  nativeMb: number;
  /** Every WAL file of the data directory, at this moment. */
  walMb: number;
  /** The pages the store files use (their free pages not counted; the WAL is read through), at this moment. */
  storeUsedMb: number;
  /** Process CPU time (all threads) since the start sample, per payment since then. */
  cpuMsPerPayment: number;
}

export interface LivePhaseResult {
  payments: number;
  start: LiveSample;
  half: LiveSample;
  end: LiveSample;
  /** Resident growth between `half` and `end`, per payment (one reading each, wherever the collector was). */
  residentKbPerPayment: number;
  /**
   * The most resident memory in the quarter before each of them (payments 3,000–6,000 and 9,000–12,000 by default,
   * read every WAL_POLL_MS), and its growth per payment: the target is ≤ 2 KB. A heap grows between collections and
   * shrinks at each, so one reading lands anywhere in that cycle; the peak over a window of several cycles does not.
   */
  peakResidentMb: [number, number];
  peakResidentKbPerPayment: number;
  heapKbPerPayment: number;
  nativeKbPerPayment: number;
  /** The largest any one WAL file was during the run, and the file. */
  maxWalMb: number;
  maxWalFile: string;
  /** The sum of the WAL files at the moment they were largest together. */
  maxWalTotalMb: number;
  paymentsPerSecond: number;
  /** Payments answered 503 (and paid again). */
  unavailable: number;
  /** The store files once the system stopped (WAL checkpointed). */
  dataMb: number;
  /** The pages the store files use, grown between `half` and `end`, per payment. */
  diskKbPerPayment: number;
  residentAfterRestartMb: number;
  /** The machine's 1-minute load average at the start and end (2 cores: above 2, work queued for a core). */
  loadAverage: { start: number; end: number };
}

const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));
const residentBytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

const TICKS_PER_SECOND = 100;
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function walSizes(dataDir: string): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const name of readdirSync(dataDir)) {
    if (!name.endsWith('.sqlite-wal')) continue;
    try {
      sizes[name] = statSync(join(dataDir, name)).size;
    } catch {
      // removed meanwhile (a close)
    }
  }
  return sizes;
}

/** The bytes of the pages each store file uses, as a reader sees them (committed writes still in the WAL included). */
function storeUsedBytes(dataDir: string): number {
  return readdirSync(dataDir).filter((n) => n.endsWith('.sqlite')).reduce((n, name) => {
    const db = new Database(join(dataDir, name), { readonly: true, fileMustExist: true });
    try {
      const pages = (db.pragma('page_count', { simple: true }) as number)
        - (db.pragma('freelist_count', { simple: true }) as number);
      return n + pages * (db.pragma('page_size', { simple: true }) as number);
    } finally {
      db.close();
    }
  }, 0);
}

function storeBytes(dataDir: string): number {
  return readdirSync(dataDir).filter((n) => /\.sqlite(-wal)?$/.test(n)).reduce(
    (n, name) => n + statSync(join(dataDir, name)).size,
    0,
  );
}

/** The latest heap sample of each thread the probe wrote. */
function latestHeaps(probeFile: string): HeapSample[] {
  if (!existsSync(probeFile)) return [];
  const byThread = new Map<string, HeapSample>();
  for (const line of readFileSync(probeFile, 'utf8').split('\n')) {
    if (!line) continue;
    const sample = JSON.parse(line) as HeapSample & { thread: string; snapshot?: string };
    if (!sample.snapshot) byThread.set(sample.thread, sample);
  }
  return [...byThread.values()];
}

/** Waits (up to 3 minutes) until every thread the probe knows wrote its snapshot of `tag`. */
async function snapshotsWritten(probeFile: string, tag: string): Promise<void> {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
    const lines = readFileSync(probeFile, 'utf8').split('\n').filter(Boolean).map((l) =>
      JSON.parse(l) as { thread: string; snapshot?: string }
    );
    const threads = new Set(lines.map((l) => l.thread));
    const written = new Set(lines.filter((l) => l.snapshot === tag).map((l) => l.thread));
    if (written.size >= threads.size) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The WAL files' sizes, and the process's resident memory, every WAL_POLL_MS. */
class LiveWatch {
  maxFile = 0;
  maxFileName = '';
  maxTotal = 0;
  /** The most resident memory seen since the window was last started. */
  windowPeak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly dataDir: string, private readonly pid: number) {
    this.timer = setInterval(() => {
      this.sample();
      this.windowPeak = Math.max(this.windowPeak, residentBytes(this.pid));
    }, WAL_POLL_MS);
  }

  startWindow(): void {
    this.windowPeak = residentBytes(this.pid);
  }

  sample(): number {
    const sizes = walSizes(this.dataDir);
    let sum = 0;
    for (const [name, size] of Object.entries(sizes)) {
      sum += size;
      if (size > this.maxFile) {
        this.maxFile = size;
        this.maxFileName = name;
      }
    }
    this.maxTotal = Math.max(this.maxTotal, sum);
    return sum;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

type Api = ReturnType<typeof createKeepAliveClient>;

/**
 * Live payments, IN_FLIGHT at a time, until `total` completed; `at(n)` is called when the n-th
 * completes (synchronously, so the sample is taken at that count).
 */
interface LivePayments {
  setup: ScalePayer;
  total: number;
  at: (done: number) => void;
  /** 503s answered so far (asked again, up to MAX_UNAVAILABLE in all). */
  unavailable: { count: number };
}

async function pay(api: Api, { setup, total, at, unavailable }: LivePayments): Promise<void> {
  let started = 0;
  let done = 0;
  // A 503 (a deadline passed on an overloaded machine, or while a heap snapshot paused a thread) is counted and asked
  // again.
  const call = async (path: string, body: unknown) => {
    let answer = await api('POST', path, body);
    while (answer.status === 503 && unavailable.count++ < MAX_UNAVAILABLE) answer = await api('POST', path, body);
    return answer;
  };
  const worker = async () => {
    while (started < total) {
      started += 1;
      if (started % PAYMENTS_PER_CUSTOMER === 0) {
        const customer = await call('/customers', {
          customerType: 'INDIVIDUAL',
          platformCustomerId: `live-${started}`,
          fullName: 'Live Customer',
          endUserTermsConsent: setup.consent,
        });
        // 409: a create answered 503 had been committed before its deadline passed, and was asked again.
        if (customer.status !== 201 && !(customer.status === 409 && unavailable.count)) {
          throw new Error(`POST /customers answered ${customer.status}: ${JSON.stringify(customer.body)}`);
        }
      }
      const body = {
        source: { sourceType: 'ACCOUNT', accountId: setup.source },
        destination: { destinationType: 'ACCOUNT', accountId: setup.payee },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        immediatelyExecute: true,
      };
      const quote = await call('/quotes', body);
      if (quote.status !== 201) throw new Error(`POST /quotes answered ${quote.status}: ${JSON.stringify(quote.body)}`);
      done += 1;
      at(done);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

export async function runLivePhase(
  root = join(__dirname, '..'),
  payments = livePayments(),
): Promise<LivePhaseResult | undefined> {
  if (payments <= 0) return undefined;
  if (!existsSync(join(root, 'main.js'))) throw new Error('run `npm run build` first');
  const dataDir = mkdtempSync(join(tmpdir(), 'grid-scale-live-'));
  const snapshots = process.env.SCALE_LIVE_HEAP_SNAPSHOTS?.trim();
  if (snapshots) mkdirSync(snapshots, { recursive: true });
  const probeFile = join(snapshots || dataDir, 'memory-probe.jsonl');
  const snapshot = (tag: string) => {
    if (snapshots) writeFileSync(`${probeFile}.snapshot`, tag);
  };
  const probe = {
    MEMORY_PROBE_FILE: probeFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${join(__dirname, 'memory-probe.js')}`.trim(),
  };
  let running: RunningSystem | undefined;
  let wal: LiveWatch | undefined;
  try {
    running = await startSystem(root, dataDir, probe);
    const pid = running.child.pid!;
    const api = createKeepAliveClient(running.base, { authorization: AUTH });
    const setup = await prepareScalePayer(api, { platformCustomerId: 'live-payer', fullName: 'Live Payer' });
    wal = new LiveWatch(dataDir, pid);
    // The probe writes once a second: the start sample waits for one after the set-up.
    await new Promise((r) => setTimeout(r, 1_100));
    const loadStart = Number(loadavg()[0].toFixed(2));
    const cpuStart = cpuMs(pid);
    const take = (count: number): LiveSample => {
      const heaps = latestHeaps(probeFile);
      const resident = residentBytes(pid);
      const sum = (field: keyof HeapSample) => heaps.reduce((n, h) => n + h[field], 0);
      return {
        payments: count,
        residentMb: mb(resident),
        heapUsedMb: mb(sum('heapUsed')),
        heapTotalMb: mb(sum('heapTotal')),
        externalMb: mb(sum('external')),
        nativeMb: mb(resident - sum('heapTotal') - sum('external')),
        walMb: mb(wal!.sample()),
        storeUsedMb: mb(storeUsedBytes(dataDir)),
        cpuMsPerPayment: count ? Number(((cpuMs(pid) - cpuStart) / count).toFixed(2)) : 0,
      };
    };
    const start = take(0);
    const halfAt = Math.floor(payments / 2);
    let half: LiveSample | undefined;
    let end: LiveSample | undefined;
    const began = performance.now();
    const unavailable = { count: 0 };
    const peaks: number[] = [];
    const at = (done: number) => {
      if (done === Math.floor(halfAt / 2) || done === halfAt + Math.floor(halfAt / 2)) wal!.startWindow();
      if (done === halfAt) {
        peaks.push(Math.max(wal!.windowPeak, residentBytes(pid)));
        half = take(done);
        snapshot('half');
      }
      if (done === payments) {
        peaks.push(Math.max(wal!.windowPeak, residentBytes(pid)));
        end = take(done);
      }
    };
    await pay(api, { setup, total: payments, at, unavailable });
    const seconds = (performance.now() - began) / 1000;
    snapshot('end');
    if (snapshots) await snapshotsWritten(probeFile, 'end');
    const loadEnd = Number(loadavg()[0].toFixed(2));
    wal.stop();
    await stopSystem(running);
    running = undefined;
    const dataMb = mb(storeBytes(dataDir));
    running = await startSystem(root, dataDir);
    const residentAfterRestartMb = mb(residentBytes(running.child.pid!));
    const between = end!.payments - half!.payments;
    const perPayment = (a: number, b: number) => Number((((b - a) * 1024) / between).toFixed(2));
    return {
      payments,
      start,
      half: half!,
      end: end!,
      residentKbPerPayment: perPayment(half!.residentMb, end!.residentMb),
      peakResidentMb: [mb(peaks[0]), mb(peaks[1])],
      peakResidentKbPerPayment: perPayment(mb(peaks[0]), mb(peaks[1])),
      heapKbPerPayment: perPayment(half!.heapTotalMb + half!.externalMb, end!.heapTotalMb + end!.externalMb),
      nativeKbPerPayment: perPayment(half!.nativeMb, end!.nativeMb),
      maxWalMb: mb(wal.maxFile),
      maxWalFile: wal.maxFileName,
      maxWalTotalMb: mb(wal.maxTotal),
      paymentsPerSecond: Number((payments / seconds).toFixed(1)),
      unavailable: unavailable.count,
      dataMb,
      diskKbPerPayment: perPayment(half!.storeUsedMb, end!.storeUsedMb),
      residentAfterRestartMb,
      loadAverage: { start: loadStart, end: loadEnd },
    };
  } finally {
    wal?.stop();
    if (running) await stopSystem(running);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runLivePhase().then(
    (result) => {
      console.log('live phase:', JSON.stringify(result, null, 1));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
