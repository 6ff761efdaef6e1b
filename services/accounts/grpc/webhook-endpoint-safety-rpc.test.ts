import { configChangesOf } from '../test-fixtures/request-bodies';
import { startAccountsService, type AccountsHarness } from '../test-fixtures/accounts-service-harness';

let live: AccountsHarness;
let sandbox: AccountsHarness;
beforeAll(async () => {
  [live, sandbox] = await Promise.all([startAccountsService({ ACCOUNTS_SANDBOX: 'false' }), startAccountsService({})]);
});
afterAll(() => Promise.all([live.stop(), sandbox.stop()]));

const setEndpoint = (h: AccountsHarness, p: { platformId: string }, url: string) =>
  h.client.updatePlatformConfig({ changes: configChangesOf({ webhookEndpoint: url }) }, p).catch((e) => e);

describe('outside the sandbox, PATCH /config refuses an endpoint a webhook could forge a request to', () => {
  test.each([
    ['http://127.0.0.1:4000/anything', 'must use https'],
    ['https://127.0.0.1:4000/anything', 'must not point at 127.0.0.1'],
    ['https://10.0.0.5/hooks', 'must not point at 10.0.0.5'],
    ['https://169.254.169.254/latest/meta-data/', 'must not point at 169.254.169.254'],
    ['https://[::1]:8443/hooks', 'must not point at ::1'],
    ['https://localhost/hooks', 'must not point at this machine'],
  ])('%s', async (url, problem) => {
    const p = await live.newPlatform();
    const err = await setEndpoint(live, p, url);
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details.errors).toEqual([
      expect.objectContaining({ field: 'webhookEndpoint', message: expect.stringContaining(problem) }),
    ]);
    await expect(live.client.getWebhookEndpoint({}, p)).resolves.toEqual({ url: '', extensionTypes: [] });
  });

  test('a public https endpoint is accepted', async () => {
    const p = await live.newPlatform();
    await setEndpoint(live, p, 'https://8.8.8.8/grid');
    await expect(live.client.getWebhookEndpoint({}, p)).resolves.toEqual({
      url: 'https://8.8.8.8/grid',
      extensionTypes: [],
    });
  });
});

test('the sandbox accepts a local receiver', async () => {
  const p = await sandbox.newPlatform();
  await setEndpoint(sandbox, p, 'http://127.0.0.1:4000/hooks');
  await expect(sandbox.client.getWebhookEndpoint({}, p)).resolves.toEqual({
    url: 'http://127.0.0.1:4000/hooks',
    extensionTypes: [],
  });
});
