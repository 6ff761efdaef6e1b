import { accessSync, constants, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * Checks made before a component touches anything: each answers the one reason the start cannot
 * go on, so the process stops at once with that reason instead of failing later with a symptom.
 */

/** Why a directory (or the nearest one that exists above it) cannot be written, in words. */
function unwritableReason(code: string | undefined): string {
  switch (code) {
    case 'EROFS':
      return 'is on a read-only file system (EROFS)';
    case 'EACCES':
    case 'EPERM':
      return `is not writable by this user (${code}, uid ${process.getuid?.() ?? '?'})`;
    case 'ENOSPC':
      return 'is on a full file system (ENOSPC)';
    case 'ENOTDIR':
      return 'is not a directory (ENOTDIR)';
    default:
      return `cannot be written (${code ?? 'unknown error'})`;
  }
}

function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/**
 * The data directory exists (created when missing) and a file can be written in it. Node reports a
 * recursive mkdir on a read-only file system as ENOENT, so the cause is asked of the directory
 * itself (or of the nearest one above it that exists).
 */
export function assertWritableDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    const probe = join(dir, `.write-check-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    let code = (err as NodeJS.ErrnoException).code;
    const existing = nearestExisting(dir);
    try {
      accessSync(existing, constants.W_OK);
    } catch (inner) {
      code = (inner as NodeJS.ErrnoException).code ?? code;
    }
    throw new Error(
      `the data directory ${dir} ${
        unwritableReason(code)
      }: mount a writable volume there or set DATA_DIR to a writable directory (DATA_DIR=:memory: keeps nothing)`,
    );
  }
}

/** The gateway's address is taken by another process: the gateway does not start. */
export class AddressInUseError extends Error {
  constructor(readonly address: string, hint = 'set PORT (and HOST) to a free address') {
    super(`${address} is already in use by another process: stop it, or ${hint}`);
    this.name = 'AddressInUseError';
  }
}

/**
 * Binds host:port for a moment and lets it go: a taken address is reported before any service
 * opens its store (port 0 always binds). A process that takes the port in between is still
 * reported when the component listens.
 */
export function assertAddressFree(host: string, port: number, hint?: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new AddressInUseError(`${host}:${port}`, hint) : err);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

export type SandboxExposure = 'private' | 'exposed-sandbox' | 'exposed-production';

/**
 * The published sandbox secret is printed in the README: a gateway reachable beyond this machine
 * with it lets anyone move money. On a laptop or demo (`all` on the embedded store) it is allowed
 * with a loud warning; anywhere else (MongoDB, or a component run on its own, as in Kubernetes)
 * the start is refused.
 */
export function sandboxExposure(
  options: { host: string; publishedSecret: boolean; component: string; mongodb: boolean },
): SandboxExposure {
  if (!options.publishedSecret || LOOPBACK.test(options.host)) return 'private';
  return options.component === 'all' && !options.mongodb ? 'exposed-sandbox' : 'exposed-production';
}
