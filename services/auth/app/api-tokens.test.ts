import { newEvent } from '../../../lib/bus/outbox';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { createApiTokenStore } from '../store/api-token-store';
import { createApiTokens } from './api-tokens';

const pepper = Buffer.alloc(32, 7);

function setup() {
  const documents = createEmbeddedDocumentStore();
  const store = createApiTokenStore(documents);
  return { store, tokens: createApiTokens({ store, pepper, newEvent }) };
}

test('the secret is stored only as a hash, and authenticates its platform with every permission', async () => {
  const { store, tokens } = setup();
  expect(
    await tokens.ensureSandboxToken({
      platformId: 'Platform:p',
      tokenId: 'tok',
      clientSecret: 'correct-horse-battery',
    }),
  ).toBe(true);
  expect(JSON.stringify(await store.tokens.find({}))).not.toContain('correct-horse-battery');
  await expect(tokens.authenticate('tok', 'correct-horse-battery')).resolves.toEqual({
    platformId: 'Platform:p',
    tokenId: 'tok',
    permissions: ['VIEW', 'TRANSACT', 'MANAGE'],
  });
});

test('ensuring again is idempotent and takes a changed secret', async () => {
  const { tokens } = setup();
  await tokens.ensureSandboxToken({ platformId: 'Platform:p', tokenId: 'tok', clientSecret: 'first-secret-value' });
  expect(
    await tokens.ensureSandboxToken({ platformId: 'Platform:p', tokenId: 'tok', clientSecret: 'second-secret-value' }),
  ).toBe(false);
  await expect(tokens.authenticate('tok', 'first-secret-value')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  await expect(tokens.authenticate('tok', 'second-secret-value')).resolves.toMatchObject({ tokenId: 'tok' });
});

test.each([['tok', 'wrong-secret-value'], ['nope', 'correct-horse-battery'], ['', ''], ['tok', '']])(
  'bad credentials (%s / %s) are UNAUTHORIZED',
  async (id, secret) => {
    const { tokens } = setup();
    await tokens.ensureSandboxToken({
      platformId: 'Platform:p',
      tokenId: 'tok',
      clientSecret: 'correct-horse-battery',
    });
    await expect(tokens.authenticate(id, secret)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  },
);

test('a short sandbox secret is refused', async () => {
  const { tokens } = setup();
  await expect(tokens.ensureSandboxToken({ platformId: 'Platform:p', tokenId: 'tok', clientSecret: 'short' })).rejects
    .toMatchObject({ code: 'INVALID_INPUT' });
});

test('a created token authenticates with its own permissions until deleted, and its deletion is an event', async () => {
  const { store, tokens } = setup();
  const { token, clientSecret } = await tokens.create('Platform:p', { name: 'reader', permissions: ['VIEW'] });
  expect(JSON.stringify(await store.tokens.find({}))).not.toContain(clientSecret);
  await expect(tokens.authenticate(token.clientId, clientSecret)).resolves.toEqual({
    platformId: 'Platform:p',
    tokenId: token.clientId,
    permissions: ['VIEW'],
  });
  await tokens.delete('Platform:p', token.id);
  await expect(tokens.authenticate(token.clientId, clientSecret)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  const [doc] = await store.tokens.find({ _id: token.clientId });
  expect((doc._outbox as Array<{ type: string; data: unknown }>)[0]).toMatchObject({
    type: 'API_TOKEN.DELETED',
    data: { tokenId: token.id, clientId: token.clientId },
  });
  await expect(tokens.get('Platform:p', token.id)).rejects.toMatchObject({ code: 'TOKEN_NOT_FOUND' });
});

test('concurrent deletions of the last two MANAGE tokens leave exactly one', async () => {
  const { tokens } = setup();
  await tokens.ensureSandboxToken({ platformId: 'Platform:p', tokenId: 'tok', clientSecret: 'correct-horse-battery' });
  const { token: other } = await tokens.create('Platform:p', { name: 'admin', permissions: ['MANAGE'] });
  const sandbox = (await tokens.list({ platformId: 'Platform:p', name: 'Sandbox token' }, 0)).items[0];
  const results = await Promise.allSettled([
    tokens.delete('Platform:p', sandbox.id),
    tokens.delete('Platform:p', other.id),
  ]);
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'CONFLICT' } });
  expect((await tokens.list({ platformId: 'Platform:p' }, 0)).items.filter((t) => t.permissions.includes('MANAGE')))
    .toHaveLength(1);
});

test('names and permissions are checked; permissions are kept in their canonical order', async () => {
  const { tokens } = setup();
  await expect(tokens.create('Platform:p', { name: '', permissions: ['ADMIN'] })).rejects.toMatchObject({
    code: 'INVALID_INPUT',
    details: { errors: [{ field: 'name' }, { field: 'permissions[0]' }] },
  });
  expect((await tokens.create('Platform:p', { name: 'x', permissions: ['MANAGE', 'VIEW', 'VIEW'] })).token.permissions)
    .toEqual(['VIEW', 'MANAGE']);
});
