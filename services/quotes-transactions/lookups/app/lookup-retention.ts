import type { Logger } from '../../../../lib/log';
import { createPeriodicTask } from '../../../../lib/runtime/periodic-task';
import type { LookupStore } from './lookup-store';

/**
 * Every lookup is stored so that a quote can check what was offered, but only until it expires:
 * an hour after that (a quote must be made before expiry) it is forgotten, so a platform that looks
 * up all day does not fill memory and disk.
 */
export function createLookupRetention(
  deps: { store: LookupStore; now: () => Date; keepAfterExpiryMs: number; logger: Logger; intervalMs?: number },
) {
  return createPeriodicTask({
    name: 'lookup retention',
    intervalMs: deps.intervalMs ?? 60_000,
    logger: deps.logger,
    run: () => deps.store.forgetExpired(new Date(deps.now().getTime() - deps.keepAfterExpiryMs)),
  });
}
