import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { silentLogger } from '../../../../lib/log';
import { createKeyedRequestDocumentStore, KEYED_REQUESTS_COLLECTION } from '../store/keyed-request-document-store';
import { createKeyedRequestRetention, createKeyedRequests } from './keyed-requests';

const HOUR = 3_600_000;
const timing = { leaseMs: 60_000, retentionMs: 24 * HOUR };
let now: Date;
let documents: ReturnType<typeof createEmbeddedDocumentStore>;
let store: ReturnType<typeof createKeyedRequestDocumentStore>;
let keyed: ReturnType<typeof createKeyedRequests>;

beforeEach(async () => {
  now = new Date('2026-01-01T00:00:00Z');
  documents = createEmbeddedDocumentStore();
  store = createKeyedRequestDocumentStore(documents);
  await store.ensureIndexes();
  keyed = createKeyedRequests({ store, clock: () => now, timing });
});

const request = { platformId: 'Platform:a', key: 'K', operation: 'POST /transfer-out', fingerprint: 'f1' };
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
const codeOf = (p: Promise<unknown>) =>
  p.then(() => 'resolved', (e: { code?: string; details?: { reason?: string } }) => `${e.code}:${e.details?.reason}`);

test('the first request claims the key; its response is replayed; another body or operation is refused', async () => {
  const begun = await keyed.begin(request);
  expect(begun.outcome).toBe('STARTED');
  expect(await codeOf(keyed.begin(request))).toBe('CONFLICT:IDEMPOTENCY_KEY_IN_FLIGHT');
  expect(await keyed.complete(request, (begun as { claim: string }).claim, { status: 201, body: '{"id":"x"}' })).toBe(
    true,
  );
  expect(await keyed.begin(request)).toEqual({ outcome: 'REPLAY', response: { status: 201, body: '{"id":"x"}' } });
  expect(await codeOf(keyed.begin({ ...request, fingerprint: 'f2' }))).toBe('IDEMPOTENCY_KEY_REUSED:OTHER_BODY');
  expect(await codeOf(keyed.begin({ ...request, operation: 'POST /transfer-in' }))).toBe(
    'IDEMPOTENCY_KEY_REUSED:OTHER_OPERATION',
  );
});

test('keys are per platform and per agent', async () => {
  await keyed.begin(request);
  expect((await keyed.begin({ ...request, platformId: 'Platform:b' })).outcome).toBe('STARTED');
  expect((await keyed.begin({ ...request, agentId: 'Agent:1' })).outcome).toBe('STARTED');
  expect((await keyed.begin({ ...request, agentId: 'Agent:2' })).outcome).toBe('STARTED');
});

test('a 5xx (and a 401 or 429) is not stored: the key is free again', async () => {
  for (const status of [500, 503, 401, 429]) {
    const begun = await keyed.begin(request) as { claim: string };
    expect(await keyed.complete(request, begun.claim, { status, body: '{}' })).toBe(false);
  }
  expect((await keyed.begin(request)).outcome).toBe('STARTED');
});

test('a claim left by a crashed process blocks only until its lease ends; the crashed holder stores none', async () => {
  const crashed = await keyed.begin(request) as { claim: string };
  advance(timing.leaseMs - 1);
  expect(await codeOf(keyed.begin(request))).toBe('CONFLICT:IDEMPOTENCY_KEY_IN_FLIGHT');
  advance(1);
  const retry = await keyed.begin(request) as { outcome: string; claim: string };
  expect(retry.outcome).toBe('STARTED');
  expect(retry.claim).not.toBe(crashed.claim);
  expect(await keyed.complete(request, crashed.claim, { status: 201, body: '"late"' })).toBe(false);
  expect(await keyed.complete(request, retry.claim, { status: 201, body: '"retry"' })).toBe(true);
  expect(await keyed.begin(request)).toEqual({ outcome: 'REPLAY', response: { status: 201, body: '"retry"' } });
});

test('of 50 concurrent claims exactly one starts', async () => {
  const results = await Promise.all(Array.from({ length: 50 }, () => codeOf(keyed.begin(request))));
  expect(results.filter((r) => r === 'resolved')).toHaveLength(1);
  expect(results.filter((r) => r === 'CONFLICT:IDEMPOTENCY_KEY_IN_FLIGHT')).toHaveLength(49);
});

test('retention: a key is kept 24 hours after its response, then purged and usable again', async () => {
  const retention = createKeyedRequestRetention({ store, clock: () => now, logger: silentLogger });
  const begun = await keyed.begin(request) as { claim: string };
  advance(5_000);
  await keyed.complete(request, begun.claim, { status: 201, body: '"first"' });
  advance(24 * HOUR - 1);
  await retention.runNow();
  expect((await keyed.begin({ ...request })).outcome).toBe('REPLAY');
  expect(await documents.collection(KEYED_REQUESTS_COLLECTION).countDocuments({})).toBe(1);
  advance(1);
  await retention.runNow();
  expect(await documents.collection(KEYED_REQUESTS_COLLECTION).countDocuments({})).toBe(0);
  expect((await keyed.begin({ ...request, fingerprint: 'another' })).outcome).toBe('STARTED');
});

test('an expired record not yet purged counts as absent', async () => {
  const begun = await keyed.begin(request) as { claim: string };
  await keyed.complete(request, begun.claim, { status: 201, body: '"first"' });
  advance(24 * HOUR);
  expect((await keyed.begin({ ...request, fingerprint: 'another' })).outcome).toBe('STARTED');
});
