import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killSystemProcess, startSystemProcess, type SystemProcess } from './system-process';

/**
 * A full disk, for real: the system runs on a small tmpfs (root may mount one; elsewhere this file
 * is skipped and lib/store/sqlite-document-store.test.ts covers the store on its own), the test fills
 * it, and then frees it. Writes answer 503 STORAGE_FULL with Retry-After, never 500; /readyz says
 * 503 for as long as writes fail (with a few kilobytes free too) and 200 once space is back,
 * without a restart.
 */
const root = mkdtempSync(join(tmpdir(), 'grid-disk-full-'));
const mounted = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', root], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const AUTH = `Basic ${Buffer.from('sandbox-token:sandbox-secret-0000000000').toString('base64')}`;
const filler = join(root, 'filler');
let system: SystemProcess | undefined;

afterAll(async () => {
  if (system) await killSystemProcess(system, 'SIGKILL');
  if (mounted) execFileSync('umount', ['-l', root], { stdio: 'ignore' });
  rmSync(root, { recursive: true, force: true });
});

/** Writes until the file system refuses (ENOSPC), in shrinking pieces so no byte is left free. */
function fillDisk(): void {
  const fd = openSync(filler, 'w');
  try {
    for (const size of [1 << 20, 1 << 14, 1 << 10, 64, 1]) {
      const chunk = Buffer.alloc(size, 7);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

const createCustomer = (id: string) =>
  fetch(`${system!.rootUrl}/2025-10-13/customers`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({
      customerType: 'INDIVIDUAL',
      platformCustomerId: id,
      fullName: 'Disk Full',
      address: { line1: 'x'.repeat(200), city: 'Austin', postalCode: '78701', country: 'US' },
    }),
  });
const readiness = async () => (await fetch(`${system!.rootUrl}/readyz`)).status;

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

(mounted ? test : test.skip)(
  'a full disk answers 503 STORAGE_FULL with Retry-After and /readyz 503; freeing space recovers without a restart',
  async () => {
    mkdirSync(join(root, 'data'));
    system = await startSystemProcess({ DATA_DIR: join(root, 'data') });
    expect((await createCustomer('before')).status).toBe(201);
    await until(async () => (await readiness()) === 200, '/readyz 200 before the disk fills');

    fillDisk();
    // SQLite may still fit a few writes in space its files already hold: write until one is refused.
    const answers: Array<{ status: number; code?: string; retryAfter: string | null }> = [];
    for (let i = 0; i < 300 && !answers.some((a) => a.status === 503); i++) {
      const res = await createCustomer(`during-${i}`);
      const body = (await res.json()) as { code?: string };
      answers.push({ status: res.status, code: body.code, retryAfter: res.headers.get('retry-after') });
    }
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused).toEqual(refused.map(() => ({ status: 503, code: 'STORAGE_FULL', retryAfter: '30' })));
    await until(async () => (await readiness()) === 503, '/readyz 503 while writes fail');
    // Not ready for as long as writes fail: readiness checks alone, and between refused writes.
    const whileFull: Array<{ ready: number; write?: number }> = [];
    for (let i = 0; i < 10; i++) whileFull.push({ ready: await readiness() });
    for (let i = 0; i < 10; i++) {
      const write = (await createCustomer(`still-full-${i}`)).status;
      whileFull.push({ ready: await readiness(), write });
    }
    expect(whileFull.filter((r) => r.write === 201)).toEqual([]); // the disk is still full
    expect(whileFull.map((r) => r.ready)).toEqual(whileFull.map(() => 503));
    // A few kilobytes freed: room for a one-page write, not for the writes requests make.
    truncateSync(filler, statSync(filler).size - 8_192);
    const nearlyFull: Array<{ write: number; ready: number }> = [];
    for (let i = 0; i < 10; i++) {
      const write = (await createCustomer(`nearly-full-${i}`)).status;
      nearlyFull.push({ write, ready: await readiness() });
    }
    // Whenever a write was refused, readiness said so.
    expect(nearlyFull.filter((r) => r.write === 503 && r.ready !== 503)).toEqual([]);
    // Reads still work; the refused write left nothing behind.
    const lastRefused = `during-${answers.length - 1}`;
    const lookup = await fetch(`${system.rootUrl}/2025-10-13/customers?platformCustomerId=${lastRefused}`, {
      headers: { authorization: AUTH },
    });
    expect(lookup.status).toBe(200);
    expect(((await lookup.json()) as { data: unknown[] }).data).toEqual([]);
    expect(system.logs.some((l) => l.msg === 'rpc refused: the data store cannot write (disk full)')).toBe(true);

    rmSync(filler);
    await until(async () => (await readiness()) === 200, '/readyz 200 once space is free');
    expect((await createCustomer('after')).status).toBe(201);
  },
);
