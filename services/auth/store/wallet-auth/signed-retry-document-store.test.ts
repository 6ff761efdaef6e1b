import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { SignedRetryRecord } from '../../domain/wallet-auth/signed-retry-record';
import { createSignedRetryDocumentStore } from './signed-retry-document-store';

const base = (id: string, over: Partial<SignedRetryRecord> = {}): SignedRetryRecord => ({
  id,
  platformId: 'Platform:1',
  operation: 'x.y',
  targetId: 't',
  requestHash: 'h',
  payloadToSign: 'p',
  signer: { kind: 'none' },
  context: {},
  state: 'ISSUED',
  issuedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:05:00.000Z',
  ...over,
});
const run = (state: 'PENDING' | 'SETTLED', settledAt?: string) => ({
  id: 'Operation:1',
  state,
  external: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  ...(settledAt ? { settledAt } : {}),
});

describe('the signed-retry document store', () => {
  test('records are scoped to their platform; the dedup key is unique', async () => {
    const store = createSignedRetryDocumentStore(createEmbeddedDocumentStore());
    await store.ensureIndexes();
    await store.insert(base('Request:1'));
    expect(await store.find('Platform:2', 'Request:1')).toBeNull();
    const a = await store.insertOrFind({ ...base('Request:2'), dedupKey: 'k' });
    const b = await store.insertOrFind({ ...base('Request:3'), dedupKey: 'k' });
    expect(b.id).toBe(a.id);
  });

  test('claim and settle are conditional; purge forgets expired and settled records only', async () => {
    const store = createSignedRetryDocumentStore(createEmbeddedDocumentStore());
    await store.ensureIndexes();
    await store.insert(base('Request:1'));
    const claim = { proof: 's', requestHash: 'h', claimedAt: '2026-01-01T00:01:00.000Z' };
    expect(
      await store.claim({
        id: 'Request:1',
        claim,
        run: run('PENDING'),
        now: new Date('2026-01-01T00:05:00.000Z'),
      }),
    ).toBeNull();
    const claimed = await store.claim({
      id: 'Request:1',
      claim,
      run: run('PENDING'),
      now: new Date('2026-01-01T00:04:00.000Z'),
      contextPatch: { extra: 1 },
    });
    expect(claimed).toMatchObject({ state: 'CLAIMED', context: { extra: 1 } });
    expect(await store.findPending(10)).toHaveLength(1);
    expect(
      await store.settle('Request:1', 'Operation:1', {
        state: 'SETTLED',
        result: { a: 1 },
        settledAt: '2026-01-02T00:00:00.000Z',
      }),
    ).toMatchObject({ run: { state: 'SETTLED', result: { a: 1 } } });
    expect(await store.settle('Request:1', 'Operation:1', { state: 'FAILED', settledAt: '2026-01-02T00:00:00.000Z' }))
      .toBeNull();
    await store.insert(base('Request:4', { expiresAt: '2026-01-03T00:00:00.000Z' }));
    await store.insert(base('Request:5', { state: 'CLAIMED', run: run('PENDING') }));
    // Request:1 settled on Jan 2 stays while operations are kept; unused Request:4 expires on Jan 3.
    expect(
      await store.purge({
        unusedBefore: new Date('2026-01-02T12:00:00.000Z'),
        settledBefore: new Date('2026-01-01T12:00:00.000Z'),
      }),
    ).toBe(0);
    expect(
      await store.purge({
        unusedBefore: new Date('2026-01-03T00:01:00.000Z'),
        settledBefore: new Date('2026-01-01T12:00:00.000Z'),
      }),
    ).toBe(1);
    expect(await store.find('Platform:1', 'Request:4')).toBeNull();
    expect(
      await store.purge({
        unusedBefore: new Date('2026-01-03T00:01:00.000Z'),
        settledBefore: new Date('2026-01-02T12:00:00.000Z'),
      }),
    ).toBe(1);
    expect(await store.find('Platform:1', 'Request:1')).toBeNull();
    expect(await store.find('Platform:1', 'Request:5')).not.toBeNull();
  });

  test('45,000 first calls that were never signed are all forgotten soon after they expire', async () => {
    const store = createSignedRetryDocumentStore(createEmbeddedDocumentStore());
    await store.ensureIndexes();
    for (let i = 0; i < 45_000; i++) {
      await store.insert(base(`Request:${i}`, { context: { otpTarget: 'x'.repeat(64) } }));
    }
    await store.insert(base('Request:live', { expiresAt: '2026-01-01T00:20:00.000Z' }));
    const purged = await store.purge({
      unusedBefore: new Date('2026-01-01T00:06:00.000Z'),
      settledBefore: new Date('2025-12-25T00:00:00.000Z'),
    });
    expect(purged).toBe(45_000);
    expect(await store.find('Platform:1', 'Request:live')).not.toBeNull();
  });
});
