import { writeFileSync } from 'node:fs';

/**
 * Names the calling thread for the operating system (Linux: `top -H`, `ps -L`, /proc/<pid>/task/<tid>/comm)
 * so each service thread's CPU can be told apart. Up to 15 bytes; nothing happens where /proc has no
 * thread-self (other systems).
 */
export function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // not Linux, or /proc not mounted: the thread keeps its name
  }
}

/** The OS thread name of the all-in-one process's one services thread (SERVICE_THREADS=one). */
export const SERVICES_THREAD_NAME = 'grid-services';

/** The OS thread name of each service's thread in the all-in-one process (SERVICE_THREADS=each). */
export const SERVICE_THREAD_NAMES = {
  auth: 'grid-auth',
  accounts: 'grid-accounts',
  'quotes-transactions': 'grid-quotes-tx',
  notifications: 'grid-notify',
} as const;
