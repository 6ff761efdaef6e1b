import type { ProbedStatus } from '../../lib/grpc/health-probe';
import { checkReadiness, type ReadinessProbe } from './readiness';

const probe = (name: string, overall: ProbedStatus, events: ProbedStatus = 'serving'): ReadinessProbe => ({
  name,
  status: async (service = '') => (service === 'events' ? events : overall),
});
const healthy = () => ['auth', 'accounts', 'quotes-transactions', 'notifications'].map((n) => probe(n, 'serving'));
const check = (probes: ReadinessProbe[], extra: { draining?: boolean; authenticates?: boolean } = {}) =>
  checkReadiness({
    draining: () => extra.draining ?? false,
    probes,
    canAuthenticate: async () => extra.authenticates ?? true,
  });

test('every dependency ok: ready', async () => {
  expect(await check(healthy())).toEqual({
    ready: true,
    body: {
      status: 'ready',
      dependencies: { accounts: 'ok', auth: 'ok', credentials: 'ok', notifications: 'ok', 'quotes-transactions': 'ok' },
    },
  });
});

test('notifications unreachable or a stalled event pipeline: still ready, degraded by name', async () => {
  const probes = healthy().map((
    p,
  ) => (p.name === 'notifications'
    ? probe('notifications', 'unreachable')
    : p.name === 'accounts'
    ? probe('accounts', 'serving', 'not serving')
    : p)
  );
  const { ready, body } = await check(probes);
  expect(ready).toBe(true);
  expect(body).toEqual({
    status: 'degraded',
    dependencies: expect.objectContaining({ notifications: 'degraded', 'accounts.events': 'degraded', accounts: 'ok' }),
  });
});

test.each(['auth', 'accounts', 'quotes-transactions'])('%s not serving: not ready', async (name) => {
  const probes = healthy().map((p) => (p.name === name ? probe(name, 'unreachable') : p));
  expect(await check(probes)).toEqual({
    ready: false,
    body: { status: 'not ready', dependencies: expect.objectContaining({ [name]: 'unavailable' }) },
  });
});

test('credentials that do not authenticate, or a drain: not ready', async () => {
  expect((await check(healthy(), { authenticates: false })).body).toMatchObject({
    status: 'not ready',
    dependencies: { credentials: 'unavailable' },
  });
  expect((await check(healthy(), { draining: true })).ready).toBe(false);
});
