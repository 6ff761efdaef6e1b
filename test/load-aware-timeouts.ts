import { availableParallelism, loadavg } from 'node:os';

/**
 * Jest's timeouts scaled by how busy the machine is. A hook that starts a system waits on a
 * condition (the system is ready, its credentials authenticate), not on a clock, so its budget
 * should follow the work: on a shared CI machine at load 10 over 2 cores every step takes about
 * five times as long as when it is quiet. The quiet budget (jest.config.js testTimeout, 30 s) is
 * multiplied by load per core, at least 1, and hooks get at least 2 minutes, capped at 10. A file
 * or a hook that sets its own timeout keeps it.
 */
const QUIET_MS = 30_000;
const busy = Math.max(1, loadavg()[0] / availableParallelism());
const TEST_MS = Math.min(10 * 60_000, Math.round(QUIET_MS * busy));
const HOOK_MS = Math.min(10 * 60_000, Math.max(2 * 60_000, TEST_MS));

jest.setTimeout(TEST_MS);

/**
 * The budget of a test that starts `systems` systems itself (a restart test): what a hook gets for each, plus the quiet
 * test budget.
 */
export function budgetForStarting(systems: number): number {
  return Math.min(15 * 60_000, systems * HOOK_MS + TEST_MS);
}

type Hook = (fn: jest.ProvidesHookCallback, timeout?: number) => void;
for (const name of ['beforeAll', 'afterAll', 'beforeEach', 'afterEach'] as const) {
  const original = globalThis[name] as Hook;
  (globalThis as Record<string, unknown>)[name] = (fn: jest.ProvidesHookCallback, timeout?: number) =>
    original(fn, timeout ?? HOOK_MS);
}
