import { HEALTH_EVENTS, type ProbedStatus } from '../../lib/grpc/health-probe';

/**
 * Readiness is "this gateway can serve requests": it is not draining, the API credentials it keeps
 * authenticate, and the services on the path of a request (auth, accounts, quotes-transactions)
 * are SERVING. What only delays side effects degrades without unreadying: notifications
 * unreachable (webhooks and messages wait in the outboxes), or an event pipeline stalled (a Kafka
 * consumer or outbox relay). Taking every gateway out of its Service for those would stop payments
 * that still work.
 */
export const DEGRADES_ONLY: ReadonlySet<string> = new Set(['notifications']);

export interface ReadinessProbe {
  name: string;
  status(service?: string, timeoutMs?: number): Promise<ProbedStatus>;
}

export type DependencyState = 'ok' | 'degraded' | 'unavailable';

export interface Readiness {
  ready: boolean;
  body: { status: 'ready' | 'degraded' | 'not ready'; dependencies: Record<string, DependencyState> };
}

export async function checkReadiness(options: {
  draining: () => boolean;
  probes: ReadinessProbe[];
  canAuthenticate?: () => Promise<boolean>;
}): Promise<Readiness> {
  const dependencies: Record<string, DependencyState> = {};
  const [authenticates] = await Promise.all([
    options.canAuthenticate?.().catch(() => false) ?? Promise.resolve(true),
    ...options.probes.map(async (probe) => {
      const [serving, events] = await Promise.all([probe.status(), probe.status(HEALTH_EVENTS)]);
      const required = !DEGRADES_ONLY.has(probe.name);
      dependencies[probe.name] = serving === 'serving' ? 'ok' : required ? 'unavailable' : 'degraded';
      if (serving === 'serving' && events !== 'serving') dependencies[`${probe.name}.events`] = 'degraded';
    }),
  ]);
  dependencies.credentials = authenticates ? 'ok' : 'unavailable';
  const draining = options.draining();
  const ready = !draining && !Object.values(dependencies).includes('unavailable');
  const degraded = Object.values(dependencies).includes('degraded');
  return {
    ready,
    body: {
      status: !ready ? 'not ready' : degraded ? 'degraded' : 'ready',
      dependencies: Object.fromEntries(Object.entries(dependencies).sort()),
    },
  };
}
