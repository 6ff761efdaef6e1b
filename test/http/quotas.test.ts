import { startTestSystem, type TestSystem } from '../system-harness';
import { policy } from './agent-fixtures';
import { approvedCardholder } from './card-fixtures';
import { createCustomer } from './kyc-fixtures';
import { expectError } from './payments-fixtures';
import { signInWithOtp } from './wallet-client';

// Per-platform (and per-wallet, per-customer) quotas, set small here; each refused with its status.
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      ACCOUNTS_KYC_STEP_MS: '30',
      AUTH_MAX_API_TOKENS_PER_PLATFORM: '4',
      AUTH_MAX_AGENTS_PER_PLATFORM: '2',
      AUTH_MAX_DEVICE_CODES_PER_PLATFORM_PER_HOUR: '3',
      SIGNED_RETRY_MAX_PENDING_PER_WALLET: '3',
      CARDS_MAX_OPEN_PER_CUSTOMER: '2',
      DELEGATED_KEYS_MAX_UNSIGNED_PER_PLATFORM_PER_HOUR: '4',
    },
  });
  expect(
    (await sys.api('/config', { method: 'PATCH', json: { embeddedWalletConfig: { appName: 'Quota test' } } })).status,
  ).toBe(200);
}, 180_000);
afterAll(async () => {
  await sys.stop();
});

test('API tokens per platform: 10 concurrent creations never pass the quota; one more: 429 till a delete', async () => {
  const { auth } = await sys.createPlatform();
  const create = (i: number) =>
    sys.api('/tokens', { method: 'POST', json: { name: `t${i}`, permissions: ['VIEW'] }, auth });
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => create(i)));
  expect(answers.every((a) => [201, 429].includes(a.status))).toBe(true);
  const live = (await sys.api('/tokens?limit=100', { auth })).body;
  expect(live.totalCount).toBeLessThanOrEqual(4);
  expect(answers.filter((a) => a.status === 201).length).toBe(live.totalCount - 1);
  while ((await sys.api('/tokens?limit=100', { auth })).body.totalCount < 4) {
    expect((await create(99)).status).toBe(201);
  }
  const refused = await create(100);
  expectError(refused, 429, 'RATE_LIMITED');
  expect(refused.body.details).toMatchObject({ quota: 'API tokens per platform', limit: 4 });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  const made = answers.find((a) => a.status === 201)!.body;
  expect((await sys.api(`/tokens/${made.id}`, { method: 'DELETE', auth })).status).toBe(204);
  expect((await create(101)).status).toBe(201);
});

test('agents per platform and device codes per hour answer 429 with Retry-After beyond their quotas', async () => {
  const c = await createCustomer(sys, { region: 'US', fullName: 'Agent Owner' });
  const agent = () =>
    sys.api('/agents', { method: 'POST', json: { name: 'Bookkeeper', customerId: c.id, policy: policy() } });
  const first = await agent();
  expect(first.status).toBe(201);
  expect((await agent()).status).toBe(201);
  const third = await agent();
  expectError(third, 429, 'RATE_LIMITED');
  expect(third.body.details).toMatchObject({ quota: 'agents per platform', limit: 2 });
  expect((await sys.api(`/agents/${first.body.agent.id}/device-codes`, { method: 'POST' })).status).toBe(201);
  const refused = await sys.api(`/agents/${first.body.agent.id}/device-codes`, { method: 'POST' });
  expectError(refused, 429, 'RATE_LIMITED');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
});

/** An embedded-wallet holder signed in, with a card funded by the wallet: the body of a delegated-key request. */
async function walletCardRequest(n: number) {
  const holder = await approvedCardholder(sys, { email: `quota-${process.pid}-${n}@example.com` });
  const walletId: string =
    (await sys.api(`/customers/internal-accounts?customerId=${holder.customerId}&type=EMBEDDED_WALLET`)).body.data[0]
      .id;
  const credentials = await sys.api(`/auth/credentials?accountId=${walletId}`);
  await signInWithOtp(sys.api, credentials.body.data.find((x: { type: string }) => x.type === 'EMAIL_OTP').id);
  const card = await sys.api('/cards', {
    method: 'POST',
    json: { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [walletId] },
  });
  expect(card.status).toBe(201);
  for (let i = 0; i < 50 && (await sys.api(`/cards/${card.body.id}`)).body.state !== 'ACTIVE'; i += 1) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return { cardId: card.body.id, internalAccountId: walletId, nickname: 'Card payments key' };
}

test(
  'unsigned first legs of POST /auth/delegated-keys stop at the '
    + 'pending challenges per wallet, then per platform (429, Retry-After)',
  async () => {
    const first = await walletCardRequest(1);
    const begin = (body: unknown) => sys.api('/auth/delegated-keys', { method: 'POST', json: body });
    const answers = await Promise.all(Array.from({ length: 12 }, () => begin(first)));
    const accepted = answers.filter((a) => a.status === 202).length;
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(accepted).toBeLessThanOrEqual(3);
    expect(answers.every((a) => [202, 429].includes(a.status))).toBe(true);
    let refused = await begin(first);
    while (refused.status === 202) refused = await begin(first);
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.body.details).toMatchObject({ quota: 'pending signed-retry challenges per wallet', limit: 3 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // Another wallet of the platform: the platform's cap on keys begun per hour (4) comes first.
    const second = await walletCardRequest(2);
    expect((await begin(second)).status).toBe(202);
    const overPlatform = await begin(second);
    expectError(overPlatform, 429, 'RATE_LIMITED');
    expect(overPlatform.body.details).toMatchObject({
      quota: 'unsigned delegated-key requests per platform per hour',
      limit: 4,
    });
  },
);

test('open cards per customer: one more is 409', async () => {
  const holder = await approvedCardholder(sys, { email: `cards-${process.pid}@example.com` });
  const usd: string =
    (await sys.api(`/customers/internal-accounts?customerId=${holder.customerId}&type=INTERNAL_FIAT&currency=USD`)).body
      .data[0].id;
  const issue = () =>
    sys.api('/cards', {
      method: 'POST',
      json: { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [usd] },
    });
  const answers = await Promise.all(Array.from({ length: 5 }, issue));
  expect(answers.filter((a) => a.status === 201).length).toBeLessThanOrEqual(2);
  const listed = await sys.api(`/cards?cardholderId=${holder.customerId}`);
  expect(listed.body.data.length).toBeLessThanOrEqual(2);
  while ((await sys.api(`/cards?cardholderId=${holder.customerId}`)).body.data.length < 2) {
    expect((await issue()).status).toBe(201);
  }
  const refused = await issue();
  expectError(refused, 409, 'CONFLICT');
  expect(refused.body.details).toMatchObject({ quota: 'open cards per customer', limit: 2 });
});
