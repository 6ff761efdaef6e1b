import { createApiTokens, type ApiTokenRecord, type ApiTokenStore } from './api-tokens';

function memoryStore(): ApiTokenStore & { records: Map<string, ApiTokenRecord> } {
  const records = new Map<string, ApiTokenRecord>();
  return {
    records,
    async find(id) { return records.get(id) ?? null; },
    async upsert(r) { const isNew = !records.has(r.tokenId); records.set(r.tokenId, r); return isNew; },
  };
}

const pepper = Buffer.alloc(32, 7);

test('the secret is stored only as a hash, and authenticates its platform', async () => {
  const store = memoryStore();
  const tokens = createApiTokens({ store, pepper });
  expect(await tokens.ensureSandboxToken({ platformId: 'Platform:p', tokenId: 'tok', clientSecret: 'correct-horse-battery' })).toBe(true);
  expect(JSON.stringify([...store.records.values()])).not.toContain('correct-horse-battery');
  await expect(tokens.authenticate('tok', 'correct-horse-battery')).resolves.toEqual({ platformId: 'Platform:p', tokenId: 'tok' });
});

test('ensuring again is idempotent and takes a changed secret', async () => {
  const store = memoryStore();
  const tokens = createApiTokens({ store, pepper });
  await tokens.ensureSandboxToken({ platformId: 'Platform:p', tokenId: 'tok', clientSecret: 'first-secret-value' });
  expect(await tokens.ensureSandboxToken({ platformId: 'Platform:p', tokenId: 'tok', clientSecret: 'second-secret-value' })).toBe(false);
  await expect(tokens.authenticate('tok', 'first-secret-value')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  await expect(tokens.authenticate('tok', 'second-secret-value')).resolves.toMatchObject({ tokenId: 'tok' });
});

test.each([['tok', 'wrong-secret-value'], ['nope', 'correct-horse-battery'], ['', ''], ['tok', '']])(
  'bad credentials (%s / %s) are UNAUTHORIZED',
  async (id, secret) => {
    const tokens = createApiTokens({ store: memoryStore(), pepper });
    await tokens.ensureSandboxToken({ platformId: 'Platform:p', tokenId: 'tok', clientSecret: 'correct-horse-battery' });
    await expect(tokens.authenticate(id, secret)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  },
);

test('a short sandbox secret is refused', async () => {
  const tokens = createApiTokens({ store: memoryStore(), pepper });
  await expect(tokens.ensureSandboxToken({ platformId: 'Platform:p', tokenId: 'tok', clientSecret: 'short' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
});
