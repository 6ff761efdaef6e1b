import { silentLogger } from '../../../lib/log';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { claimedDelivery, type DeliveryAttempt } from '../domain/webhook-delivery';
import { createWebhookDeliveryDocumentStore } from '../store/webhook-delivery-document-store';
import { createDeliverWebhook, type AttemptResult, type Postponed } from './deliver-webhook';
import { createRecordWebhookNotification } from './record-webhook-notification';
import { createWebhookDeliveryWorker } from './webhook-delivery-worker';

const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';
const policy = { baseDelayMs: 1, maxDelayMs: 1, retryWindowMs: 3_600_000, maxAttempts: 4 };

function event(n: number) {
  return {
    id: `Event:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type: 'CUSTOMER.CREATED',
    version: 1,
    occurredAt: new Date().toISOString(),
    platformId: PLATFORM,
    aggregateId: `Customer:${n}`,
    data: { n },
  };
}

function setup(answer: () => Promise<Pick<DeliveryAttempt, 'outcome' | 'statusCode'> | Postponed>) {
  const deliveries = createWebhookDeliveryDocumentStore(createEmbeddedDocumentStore());
  const sent: string[] = [];
  const deliver = async (d: { id: string }, attempt: number): Promise<AttemptResult | Postponed> => {
    sent.push(`${d.id}#${attempt}`);
    const result = await answer();
    if ('postponed' in result) return result;
    return { attempt: { attempt, attemptedAt: new Date().toISOString(), durationMs: 1, ...result } };
  };
  const worker = (concurrency = 1) =>
    createWebhookDeliveryWorker({
      deliveries,
      deliver,
      policy,
      claimMs: 60_000,
      pollIntervalMs: 5,
      concurrency,
      logger: silentLogger,
      random: () => 0,
    });
  const record = createRecordWebhookNotification({ deliveries, maxAttempts: policy.maxAttempts, logger: silentLogger });
  return { deliveries, sent, worker, record };
}

async function until(condition: () => Promise<boolean>, ms = 5_000) {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const statuses = async (s: ReturnType<typeof setup>) =>
  (await s.deliveries.list(PLATFORM, { limit: 100 })).items.map((d) => d.status);

test('two workers with several lanes each never send the same attempt twice', async () => {
  const s = setup(async () => {
    await new Promise((r) => setTimeout(r, Math.random() * 3));
    return { outcome: 'ACKNOWLEDGED', statusCode: 200 };
  });
  for (let n = 0; n < 60; n++) await s.record(event(n));
  const a = s.worker(4);
  const b = s.worker(4);
  a.start();
  b.start();
  await until(async () => (await statuses(s)).every((status) => status === 'DELIVERED'));
  await Promise.all([a.stop(), b.stop()]);
  expect(s.sent).toHaveLength(60);
  expect(new Set(s.sent).size).toBe(60);
});

test('while the endpoint cannot be read, a delivery waits without spending its attempts, then is sent', async () => {
  let lookupFails = true;
  const s = setup(
    async () => (lookupFails
      ? { postponed: 'webhook endpoint could not be read' }
      : { outcome: 'ACKNOWLEDGED', statusCode: 200 }),
  );
  await s.record(event(1));
  const w = s.worker();
  w.start();
  await until(async () => s.sent.length >= 3 * policy.maxAttempts);
  const [waiting] = (await s.deliveries.list(PLATFORM, { limit: 1 })).items;
  expect({ status: waiting.status, attemptCount: waiting.attemptCount, attempts: waiting.attempts ?? [] }).toEqual({
    status: 'PENDING',
    attemptCount: 0,
    attempts: [],
  });
  lookupFails = false;
  await until(async () => (await statuses(s)).every((status) => status === 'DELIVERED'));
  await w.stop();
  const [delivered] = (await s.deliveries.list(PLATFORM, { limit: 1 })).items;
  expect(delivered.attemptCount).toBe(1);
});

test('a redelivered event is recorded once', async () => {
  const s = setup(async () => ({ outcome: 'ACKNOWLEDGED', statusCode: 200 }));
  await s.record(event(1));
  await s.record(event(1));
  expect((await s.deliveries.list(PLATFORM, { limit: 10 })).totalCount).toBe(1);
});

test('failures are retried and logged attempt by attempt until acknowledged', async () => {
  let calls = 0;
  const s = setup(
    async () => (++calls <= 2
      ? { outcome: 'REJECTED', statusCode: 503 }
      : { outcome: 'ACKNOWLEDGED', statusCode: 200 }),
  );
  await s.record(event(1));
  const w = s.worker();
  while (await w.deliverOne());
  const [delivery] = (await s.deliveries.list(PLATFORM, { limit: 1 })).items;
  expect(delivery.status).toBe('DELIVERED');
  expect(delivery.attempts.map((a) => [a.attempt, a.statusCode, a.outcome])).toEqual([[1, 503, 'REJECTED'], [
    2,
    503,
    'REJECTED',
  ], [3, 200, 'ACKNOWLEDGED']]);
});

test('after the last attempt fails the delivery is FAILED and no longer claimed', async () => {
  const s = setup(async () => ({ outcome: 'UNREACHABLE' }));
  await s.record(event(1));
  const w = s.worker();
  while (await w.deliverOne());
  const [delivery] = (await s.deliveries.list(PLATFORM, { limit: 1 })).items;
  expect(delivery.status).toBe('FAILED');
  expect(delivery.attemptCount).toBe(policy.maxAttempts);
  expect(s.sent).toHaveLength(policy.maxAttempts);
});

test('a lapsed claim is taken over; the first claimant can no longer record its attempt', async () => {
  const s = setup(async () => ({ outcome: 'ACKNOWLEDGED', statusCode: 200 }));
  await s.record(event(1));
  const now = Date.now();
  const first = await s.deliveries.claimDue(now, { claimId: 'first', until: now + 1_000 });
  expect(first!.status).toBe('DELIVERING');
  expect(await s.deliveries.claimDue(now + 500, { claimId: 'early', until: now + 5_000 })).toBeNull();
  const second = await s.deliveries.claimDue(now + 1_000, { claimId: 'second', until: now + 5_000 });
  expect(second!.attemptCount).toBe(2);
  const attempt: DeliveryAttempt = {
    attempt: 1,
    attemptedAt: new Date().toISOString(),
    durationMs: 1,
    outcome: 'ACKNOWLEDGED',
    statusCode: 200,
  };
  expect(await s.deliveries.finishAttempt(first!.id, 'first', attempt, { status: 'DELIVERED' })).toBe(false);
  expect(await s.deliveries.finishAttempt(first!.id, 'second', { ...attempt, attempt: 2 }, { status: 'DELIVERED' }))
    .toBe(true);
  expect((await s.deliveries.get(PLATFORM, first!.id))!.attempts.map((a) => a.attempt)).toEqual([2]);
});

test("another platform's delivery is not found", async () => {
  const s = setup(async () => ({ outcome: 'ACKNOWLEDGED', statusCode: 200 }));
  await s.record(event(1));
  const [delivery] = (await s.deliveries.list(PLATFORM, { limit: 1 })).items;
  expect(await s.deliveries.get('Platform:00000000-0000-4000-8000-000000000009', delivery.id)).toBeNull();
});

test('a recorded delivery wakes one idle lane, which sends it long before the next poll', async () => {
  const s = setup(async () => ({ outcome: 'ACKNOWLEDGED', statusCode: 200 }));
  let claims = 0;
  const claimDue = s.deliveries.claimDue.bind(s.deliveries);
  s.deliveries.claimDue = (now, claim) => {
    claims++;
    return claimDue(now, claim);
  };
  const worker = createWebhookDeliveryWorker({
    deliveries: s.deliveries,
    deliver: async (d, attempt) => {
      s.sent.push(`${d.id}#${attempt}`);
      return {
        attempt: {
          attempt,
          attemptedAt: new Date().toISOString(),
          durationMs: 1,
          outcome: 'ACKNOWLEDGED',
          statusCode: 200,
        },
      };
    },
    policy,
    claimMs: 60_000,
    pollIntervalMs: 60_000,
    concurrency: 4,
    logger: silentLogger,
  });
  const record = createRecordWebhookNotification({
    deliveries: s.deliveries,
    maxAttempts: policy.maxAttempts,
    logger: silentLogger,
    recorded: () => worker.nudge(),
  });
  worker.start();
  await until(async () => claims === 4); // each lane's first look finds nothing; then they sleep for a minute
  for (let n = 0; n < 20; n++) await record(event(n));
  await until(async () => s.sent.length === 20, 2_000);
  await worker.stop();
  // Every delivery claimed once, plus at most one empty look per nudge that found the work already taken.
  expect(claims - 4).toBeLessThanOrEqual(40);
  expect(new Set(s.sent).size).toBe(20);
});

test('no endpoint: no delivery; an endpoint that cannot be read: the event is left to the worker', async () => {
  const s = setup(async () => ({ outcome: 'ACKNOWLEDGED', statusCode: 200 }));
  const endpoints = new Map<string, string>();
  let unreadable = false;
  const directory = {
    endpointOf: async (platformId: string) => {
      if (unreadable) throw new Error('accounts unavailable');
      return endpoints.get(platformId);
    },
  };
  const record = createRecordWebhookNotification({
    deliveries: s.deliveries,
    directory,
    maxAttempts: policy.maxAttempts,
    logger: silentLogger,
  });
  await record(event(1));
  endpoints.set(PLATFORM, 'https://hooks.example.com');
  await record(event(2));
  unreadable = true;
  await record(event(3));
  const log = (await s.deliveries.list(PLATFORM, { limit: 10 })).items.sort((a, b) =>
    a.dataJson.localeCompare(b.dataJson)
  );
  expect(log.map((d) => [JSON.parse(d.dataJson), d.status, d.attempts])).toEqual([
    // event 1, while no endpoint was set: not recorded
    [{ n: 2 }, 'PENDING', []],
    [{ n: 3 }, 'PENDING', []], // the endpoint could not be read: the worker reads it again at the attempt
  ]);
  const worker = s.worker(1);
  worker.start();
  await until(async () => s.sent.length === 2);
  await worker.stop();
  expect(s.sent.sort()).toEqual([`${log[0].id}#1`, `${log[1].id}#1`].sort());
});

test('a delivery whose endpoint is removed after recording, before the attempt: SKIPPED, NO_ENDPOINT', async () => {
  const endpoints = new Map([[PLATFORM, 'https://hooks.example.com']]);
  const directory = { endpointOf: async (platformId: string) => endpoints.get(platformId) };
  const deliveries = createWebhookDeliveryDocumentStore(createEmbeddedDocumentStore());
  const posted: string[] = [];
  const { deliver } = createDeliverWebhook({
    directory,
    sign: () => 'signature',
    timeoutMs: 1_000,
    logger: silentLogger,
    sender: {
      post: async ({ url }) => {
        posted.push(url);
        return { statusCode: 200, body: '' };
      },
    },
  });
  const worker = createWebhookDeliveryWorker({
    deliveries,
    deliver,
    policy,
    claimMs: 60_000,
    pollIntervalMs: 5,
    concurrency: 1,
    logger: silentLogger,
  });
  const record = createRecordWebhookNotification({
    deliveries,
    directory,
    maxAttempts: policy.maxAttempts,
    logger: silentLogger,
  });
  await record(event(1));
  endpoints.delete(PLATFORM);
  expect(await worker.deliverOne()).toBe(true);
  const [delivery] = (await deliveries.list(PLATFORM, { limit: 10 })).items;
  expect([delivery.status, delivery.attempts.map((a) => [a.outcome, a.error])]).toEqual(['SKIPPED', [[
    'NO_ENDPOINT',
    'WEBHOOK_ENDPOINT_NOT_SET',
  ]]]);
  expect(posted).toEqual([]);
  expect(await worker.deliverOne()).toBe(false);
});

/** The store with its writes counted by kind, each once it has been answered. */
function countingStore(s: ReturnType<typeof setup>) {
  const writes = { insert: 0, claimDue: 0, finishAttempt: 0, postpone: 0 };
  for (const name of Object.keys(writes) as Array<keyof typeof writes>) {
    const original = (s.deliveries[name] as (...args: unknown[]) => Promise<unknown>).bind(s.deliveries);
    (s.deliveries as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
      original(...args).finally(() => {
        writes[name]++;
      });
  }
  return writes;
}

function handOffWorker(
  s: ReturnType<typeof setup>,
  concurrency: number,
  answer: () => Promise<void> = async () => undefined,
) {
  const worker = createWebhookDeliveryWorker({
    deliveries: s.deliveries,
    policy,
    claimMs: 60_000,
    pollIntervalMs: 60_000,
    concurrency,
    logger: silentLogger,
    deliver: async (d, attempt) => {
      s.sent.push(`${d.id}#${attempt}`);
      await answer();
      return {
        attempt: {
          attempt,
          attemptedAt: new Date().toISOString(),
          durationMs: 1,
          outcome: 'ACKNOWLEDGED',
          statusCode: 200,
        },
      };
    },
  });
  const record = createRecordWebhookNotification({
    deliveries: s.deliveries,
    maxAttempts: policy.maxAttempts,
    logger: silentLogger,
    recorded: () => worker.nudge(),
    handOff: () => worker.reserve(),
  });
  return { worker, record };
}

test('a lane idle: a delivery is stored claimed and attempted at once; two writes, no store claim', async () => {
  const s = setup(async () => ({ outcome: 'ACKNOWLEDGED', statusCode: 200 }));
  const writes = countingStore(s);
  const { worker, record } = handOffWorker(s, 1);
  worker.start();
  await until(async () => writes.claimDue === 1); // the lane's first look finds nothing; then it sleeps for a minute
  for (let n = 0; n < 5; n++) {
    await record(event(n));
    await until(async () => s.sent.length === n + 1 && writes.finishAttempt === n + 1);
  }
  await worker.stop();
  expect(writes).toEqual({ insert: 5, claimDue: 1, finishAttempt: 5, postpone: 0 });
  const log = (await s.deliveries.list(PLATFORM, { limit: 10 })).items;
  expect(log.map((d) => [d.status, d.attemptCount, d.attempts.map((a) => [a.attempt, a.outcome])])).toEqual(
    Array(5).fill(['DELIVERED', 1, [[1, 'ACKNOWLEDGED']]]),
  );
  expect(new Set(s.sent)).toEqual(new Set(log.map((d) => `${d.id}#1`)));
});

test('with every lane busy, deliveries are stored PENDING and claimed from the store; each is sent once', async () => {
  const s = setup(async () => ({ outcome: 'ACKNOWLEDGED', statusCode: 200 }));
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const writes = countingStore(s);
  const { worker, record } = handOffWorker(s, 2, () => gate);
  worker.start();
  await until(async () => writes.claimDue === 2); // both lanes looked once and sleep
  for (let n = 0; n < 6; n++) await record(event(n));
  const stored = (await s.deliveries.list(PLATFORM, { limit: 10 })).items;
  expect(stored.map((d) => d.status).sort()).toEqual([
    'DELIVERING',
    'DELIVERING',
    'PENDING',
    'PENDING',
    'PENDING',
    'PENDING',
  ]);
  release();
  await until(async () => (await statuses(s)).every((status) => status === 'DELIVERED'));
  await worker.stop();
  expect(s.sent).toHaveLength(6);
  expect(new Set(s.sent.map((x) => x.split('#')[0])).size).toBe(6);
  expect(s.sent.every((x) => x.endsWith('#1'))).toBe(true);
});

test('a delivery handed to a worker stopping before its attempt goes back PENDING, attempt not counted', async () => {
  const s = setup(async () => ({ outcome: 'ACKNOWLEDGED', statusCode: 200 }));
  const writes = countingStore(s);
  const { worker } = handOffWorker(s, 1);
  worker.start();
  await until(async () => writes.claimDue === 1);
  const lane = worker.reserve()!;
  expect(worker.reserve()).toBeUndefined(); // the one lane is taken
  const delivery = claimedDelivery(
    { id: 'Webhook:1', platformId: PLATFORM, type: 'CUSTOMER.CREATED', dataJson: '{}' },
    new Date(),
    policy.maxAttempts,
    lane.until,
  );
  expect(await s.deliveries.insert({ ...delivery, claimId: lane.claimId })).toBe(true);
  await worker.stop();
  lane.give(delivery);
  await until(async () => (await s.deliveries.get(PLATFORM, 'Webhook:1'))!.status === 'PENDING');
  expect((await s.deliveries.get(PLATFORM, 'Webhook:1'))!.attemptCount).toBe(0);
  expect(s.sent).toEqual([]);
});

test('a delivery claimed by a process that died before the attempt goes to another once the claim lapses', async () => {
  const s = setup(async () => ({ outcome: 'ACKNOWLEDGED', statusCode: 200 }));
  const now = Date.now();
  const delivery = claimedDelivery(
    { id: 'Webhook:2', platformId: PLATFORM, type: 'CUSTOMER.CREATED', dataJson: '{}' },
    new Date(now),
    policy.maxAttempts,
    now + 60_000,
  );
  await s.deliveries.insert({ ...delivery, claimId: 'dead-process' });
  const before = createWebhookDeliveryWorker({
    deliveries: s.deliveries,
    deliver: async () => {
      throw new Error('not due');
    },
    policy,
    claimMs: 60_000,
    pollIntervalMs: 5,
    concurrency: 1,
    logger: silentLogger,
    clock: () => new Date(now + 59_000),
  });
  expect(await before.deliverOne()).toBe(false);
  const later = createWebhookDeliveryWorker({
    deliveries: s.deliveries,
    policy,
    claimMs: 60_000,
    pollIntervalMs: 5,
    concurrency: 1,
    logger: silentLogger,
    clock: () => new Date(now + 60_000),
    deliver: async (d, attempt) => {
      s.sent.push(`${d.id}#${attempt}`);
      return {
        attempt: {
          attempt,
          attemptedAt: new Date().toISOString(),
          durationMs: 1,
          outcome: 'ACKNOWLEDGED',
          statusCode: 200,
        },
      };
    },
  });
  expect(await later.deliverOne()).toBe(true);
  expect(s.sent).toEqual(['Webhook:2#2']);
  expect((await s.deliveries.get(PLATFORM, 'Webhook:2'))!.status).toBe('DELIVERED');
});
