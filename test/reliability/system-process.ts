import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

export interface SystemProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  rootUrl: string;
  /** Log lines the process wrote (JSON objects). */
  logs: Array<Record<string, unknown>>;
  /** Lines it wrote to stderr. */
  stderr: string[];
  /** Resolves with the exit code (or signal) once the process ended. */
  exited: Promise<number | NodeJS.Signals | null>;
}

/**
 * `node dist/main.js all` as `npm start` runs it, on the given data directory; resolves once it
 * logged `started` (the sandbox credentials exist). Rejects when it exits or stays silent first.
 */
export function startSystemProcess(env: NodeJS.ProcessEnv, timeoutMs = 150_000): Promise<SystemProcess> {
  return startComponentProcess('all', env, timeoutMs);
}

/** One component as Kubernetes runs it (`node dist/main.js <component>`); `rootUrl` is the gateway's, else empty. */
export async function startComponentProcess(
  component: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 150_000,
): Promise<SystemProcess> {
  if (!existsSync(MAIN)) throw new Error('dist/main.js is missing: run `npm run build` (npm test does)');
  const child = spawn(process.execPath, [MAIN, component], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      MONGODB_URI: '',
      KAFKA_BROKERS: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code))
  );
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const rootUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the system did not start within ${timeoutMs} ms`)), timeoutMs);
    let url = '';
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      logs.push(entry);
      if (entry.msg === 'gateway listening') url = String(entry.url);
      if (entry.msg === 'started') {
        clearTimeout(timer);
        resolve(url);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the system exited (${code}) before it started: ${stderr.join('\n')}`));
    });
  });
  return { child, rootUrl, logs, stderr, exited };
}

export async function killSystemProcess(
  system: SystemProcess,
  signal: NodeJS.Signals,
): Promise<number | NodeJS.Signals | null> {
  if (system.child.exitCode === null && system.child.signalCode === null) system.child.kill(signal);
  return system.exited;
}

const AUDIT_COMMAND = join(__dirname, '..', '..', 'dist', 'services', 'quotes-transactions', 'ledger-audit-command.js');

/** `npm run ledger:audit` on a stopped system's data directory: its JSON report. */
export function ledgerAudit(
  dataDir: string,
): Promise<{ clean: boolean; problems: unknown[]; inFlight: string[]; counts: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [AUDIT_COMMAND], {
      env: { ...process.env, DATA_DIR: dataDir, MONGODB_URI: '' },
      maxBuffer: 16 * 1024 * 1024,
    }, (err, stdout, stderr) => {
      if (err && !stdout) return reject(new Error(`ledger audit: ${stderr || err.message}`));
      resolve(JSON.parse(stdout));
    });
  });
}
