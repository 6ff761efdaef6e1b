import { externalAccountBody } from '../../services/accounts/test-fixtures/request-bodies';
import { referenceProblems } from '../contract/reference-contract';
import { startTestSystem, type TestSystem } from '../system-harness';
import { expectError, FAST_SETTLEMENT, fund } from './payments-fixtures';
import { stablecoinWalk, type Walk } from './stablecoin-walk';

let sys: TestSystem;
let seq = 0;
beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      ...FAST_SETTLEMENT,
      STABLECOIN_POLL_MS: '20',
      STABLECOIN_REVERIFY_SECONDS: '0',
      STABLECOIN_FUNDING_WINDOW_SECONDS: '2',
    },
  });
}, 180_000);
afterAll(async () => {
  await sys.stop();
});

const key = () => `stablecoin-test-${process.pid}-${seq++}`;
const post = (path: string, json: unknown, idempotencyKey: string | null = key()) =>
  sys.api(path, {
    method: 'POST',
    json,
    ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
  });

async function operationWhen(id: string, done: (op: any) => boolean, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await sys.api(`/stablecoin-operations/${id}`);
    expect(res.status).toBe(200);
    if (done(res.body) || Date.now() > deadline) return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function platformUsdAccount(): Promise<string> {
  const res = await sys.api('/platform/internal-accounts?currency=USD');
  expect(res.status).toBe(200);
  return res.body.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USD').id;
}

async function balance(accountId: string): Promise<number> {
  const res = await sys.api('/platform/internal-accounts?currency=USD');
  return res.body.data.find((a: { id: string }) => a.id === accountId).balance.amount;
}

async function platformExternal(variant: 'USD_ACCOUNT' | 'SPARK_WALLET'): Promise<string> {
  const body = externalAccountBody(variant);
  if (variant === 'USD_ACCOUNT') body.accountInfo.accountNumber = `${Date.now()}${seq++}`.slice(-12);
  const res = await sys.api('/platform/external-accounts', { method: 'POST', json: body });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('provider accounts', () => {
  test('linking verifies the credentials, never returns the secret, and needs an Idempotency-Key', async () => {
    const body = { provider: 'BRALE', apiClientId: `client-${seq++}`, apiClientSecret: 'provider_secret_456' };
    expectError(await post('/stablecoin-provider-accounts', body, null), 400, 'INVALID_INPUT');
    const k = key();
    const linked = await post('/stablecoin-provider-accounts', body, k);
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ provider: 'BRALE', providerEnvironment: 'SANDBOX', status: 'ACTIVE' });
    expect(linked.body.lastVerifiedAt).toBeDefined();
    expect(JSON.stringify(linked.body)).not.toContain('provider_secret_456');
    const replay = await post('/stablecoin-provider-accounts', body, k);
    expect([replay.status, replay.body.id, replay.headers.get('idempotent-replayed')]).toEqual([
      201,
      linked.body.id,
      'true',
    ]);
    expectError(
      await post('/stablecoin-provider-accounts', { ...body, apiClientId: 'another' }, k),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    const read = await sys.api(`/stablecoin-provider-accounts/${linked.body.id}`);
    expect(read.status).toBe(200);
    expect(Date.parse(read.body.lastVerifiedAt)).toBeGreaterThanOrEqual(Date.parse(linked.body.lastVerifiedAt));
    expect(JSON.stringify(read.body)).not.toContain('provider_secret_456');
    const list = await sys.api('/stablecoin-provider-accounts?status=ACTIVE');
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(linked.body.id);
  });

  test('credentials the provider refuses are STABLECOIN_PROVIDER_ACCOUNT_INVALID; unknown ids are 404', async () => {
    expectError(
      await post('/stablecoin-provider-accounts', {
        provider: 'BRALE',
        apiClientId: 'x',
        apiClientSecret: 'invalid-secret',
      }),
      400,
      'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
    );
    expectError(
      await post('/stablecoin-provider-accounts', { provider: 'OTHER', apiClientId: 'x', apiClientSecret: 's' }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await sys.api('/stablecoin-provider-accounts/StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001'),
      404,
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    );
  });
});

describe('the walk of a new user on the sandbox provider', () => {
  let walk: Walk;
  beforeAll(async () => {
    walk = await stablecoinWalk(sys, {
      post,
      operationWhen,
      platformUsdAccount,
      balance,
      platformExternal,
      fund: (id, amount) => fund(sys, id, amount),
    });
  }, 120_000);

  test(
    'several active links need stablecoinProviderAccountId; a PROVISIONED registration '
      + 'is ENABLED for Grid under its symbol, one under review PENDING_APPROVAL',
    async () => {
      expect(walk.stablecoin).toMatchObject({
        issuanceStatus: 'PROVISIONED',
        gridOperationsStatus: 'ENABLED',
        currency: walk.stablecoin.symbol,
        network: 'SPARK',
        decimals: 6,
        baseCurrency: 'USD',
        providerEnvironment: 'SANDBOX',
      });
      expectError(
        await post('/stablecoins', {
          providerTokenIdentifier: 'OTHER',
          networkTokenIdentifier: 'btkn1other',
          network: 'SPARK',
        }),
        400,
        'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
      );
      expectError(
        await post('/stablecoins', {
          providerTokenIdentifier: 'ACME',
          networkTokenIdentifier: 'btkn1acme',
          network: 'SPARK',
          stablecoinProviderAccountId: walk.accountId,
        }),
        409,
        'CONFLICT',
      );
      expectError(
        await post('/stablecoins', {
          providerTokenIdentifier: 'UNKNOWN1',
          networkTokenIdentifier: 'btkn1x',
          network: 'SPARK',
          stablecoinProviderAccountId: walk.accountId,
        }),
        400,
        'INVALID_INPUT',
      );
      expectError(
        await sys.api('/stablecoins/Stablecoin:019542f5-b3e7-1d02-0000-000000000002'),
        404,
        'REFERENCE_NOT_FOUND',
      );
      const listed = await sys.api('/stablecoins?issuanceStatus=PROVISIONED');
      expect(listed.body.data.map((s: { id: string }) => s.id)).toContain(walk.stablecoin.id);
    },
  );

  test('bad mints are refused with every invalid field and nothing moves', async () => {
    const usd = await platformUsdAccount();
    const before = await balance(usd);
    const mints = `/stablecoins/${walk.stablecoin.id}/mints`;
    const bad = await post(mints, {
      amount: '1000001',
      fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd },
      destination: { accountId: walk.wallet },
    });
    expectError(bad, 400, 'INVALID_AMOUNT' === bad.body.code ? 'INVALID_AMOUNT' : 'INVALID_INPUT');
    expect(bad.body.details.errors.map((e: { field: string }) => e.field)).toContain('amount');
    expectError(
      await post(mints, { amount: '100', fundingSource: { type: 'CARD' }, destination: { accountId: walk.wallet } }),
      400,
      'INVALID_INPUT',
    );
    const tooMuch = await post(mints, {
      amount: String((before + 100) * 10_000),
      fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd },
      destination: { accountId: walk.wallet },
    });
    expectError(tooMuch, 400, 'INSUFFICIENT_BALANCE');
    expect(await balance(usd)).toBe(before);
    expectError(
      await post(mints, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: walk.bank } }),
      400,
      'INVALID_INPUT',
    );
  });

  test('a wire-funded mint of 1,000.00 shows funding instructions, completes when the sandbox reports funds', () => {
    expect(walk.wireMint.created).toMatchObject({
      status: 'PENDING_FUNDING',
      operationType: 'MINT',
      amount: '1000000000',
      source: { type: 'WIRE' },
    });
    expect(walk.wireMint.created.fundingInstructions).toMatchObject({
      rail: 'WIRE',
      amount: '100000',
      currency: 'USD',
    });
    expect(walk.wireMint.created.expiresAt).toBeDefined();
    expect(walk.wireMint.final).toMatchObject({ status: 'COMPLETED', providerStatus: 'complete' });
  });

  test('a mint from the platform internal USD account debits the ledger exactly', () => {
    expect(walk.internalMint.final.status).toBe('COMPLETED');
    expect(walk.internalMint.balanceBefore - walk.internalMint.balanceAfter).toBe(150_000);
  });

  test('a provider failure after processing fails the mint and refunds the internal account to the unit', async () => {
    const usd = await platformUsdAccount();
    const before = await balance(usd);
    const created = await post(`/stablecoins/${walk.stablecoin.id}/mints`, {
      amount: '12020000',
      fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd },
      destination: { accountId: walk.wallet },
    });
    expect(created.status).toBe(201);
    const failed = await operationWhen(created.body.id, (op) => op.status === 'FAILED');
    expect(failed).toMatchObject({
      status: 'FAILED',
      failureReason: 'PROVIDER_TRANSFER_FAILED',
      providerStatus: 'failed',
    });
    const deadline = Date.now() + 5000;
    while ((await balance(usd)) !== before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await balance(usd)).toBe(before);
  });

  test('ACH debit and provider-balance mints complete; a refused transfer fails at once', async () => {
    const mints = `/stablecoins/${walk.stablecoin.id}/mints`;
    const ach = await post(mints, {
      amount: '5000000',
      fundingSource: { type: 'SAME_DAY_ACH_DEBIT', externalAccountId: walk.bank },
      destination: { accountId: walk.wallet },
    });
    expect(ach.body).toMatchObject({
      status: 'PENDING_PROVIDER',
      source: { type: 'SAME_DAY_ACH_DEBIT', externalAccountId: walk.bank },
    });
    const balanceMint = await post(mints, {
      amount: '7000000',
      fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' },
      destination: { accountId: walk.wallet },
    });
    expect(balanceMint.status).toBe(201);
    expect((await operationWhen(ach.body.id, (op) => op.status === 'COMPLETED')).status).toBe('COMPLETED');
    expect((await operationWhen(balanceMint.body.id, (op) => op.status === 'COMPLETED')).status).toBe('COMPLETED');
    const refused = await post(mints, {
      amount: '40000',
      fundingSource: { type: 'WIRE' },
      destination: { accountId: walk.wallet },
    });
    expect(refused.body).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_REJECTED' });
  });

  test('a burn to a bank account carries its estimated delivery and completes', () => {
    expect(walk.burn.created).toMatchObject({
      operationType: 'BURN',
      destination: { accountId: walk.bank, rail: 'ACH_CREDIT' },
    });
    expect(walk.burn.created.estimatedDelivery).toEqual({
      rail: 'ACH_CREDIT',
      amount: '25000',
      currency: 'USD',
      timing: '1-3 business days',
    });
    expect(walk.burn.final.status).toBe('COMPLETED');
  });

  test('an external-wallet burn shows the deposit address; an unfunded wire mint expires', async () => {
    const burn = await post(`/stablecoins/${walk.stablecoin.id}/burns`, {
      amount: '1000000',
      source: { type: 'EXTERNAL_ACCOUNT' },
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: walk.bank, rail: 'WIRE' },
    });
    expect(burn.body).toMatchObject({
      status: 'PENDING_FUNDING',
      fundingInstructions: { rail: 'SPARK', network: 'SPARK', valueType: 'ACME' },
    });
    expect(burn.body.fundingInstructions.address).toMatch(/^spark1/);
    const unfunded = await post(`/stablecoins/${walk.stablecoin.id}/mints`, {
      amount: '30000',
      fundingSource: { type: 'WIRE' },
      destination: { accountId: walk.wallet },
    });
    expect(unfunded.body.status).toBe('PENDING_FUNDING');
    const expired = await operationWhen(unfunded.body.id, (op) => op.status === 'EXPIRED');
    expect(expired).toMatchObject({ status: 'EXPIRED', failureReason: 'FUNDING_NOT_RECEIVED' });
  });

  test(
    'the provider answering invalid_client (sandbox: cents 05) revokes '
      + 'the link, disables its stablecoins and refuses new operations',
    async () => {
      const linked = await post('/stablecoin-provider-accounts', {
        provider: 'BRALE',
        apiClientId: `revocable-${seq++}`,
        apiClientSecret: 's',
      });
      const coin = await post('/stablecoins', {
        providerTokenIdentifier: 'REVO',
        networkTokenIdentifier: 'btkn1revo',
        network: 'SPARK',
        stablecoinProviderAccountId: linked.body.id,
      });
      expect(coin.body).toMatchObject({ gridOperationsStatus: 'ENABLED', currency: 'REVO' });
      const pending = await post('/stablecoins', {
        providerTokenIdentifier: 'PENDINGREVO',
        networkTokenIdentifier: 'btkn1pending',
        network: 'SPARK',
        stablecoinProviderAccountId: linked.body.id,
      });
      expect(pending.body).toMatchObject({
        issuanceStatus: 'PENDING_REVIEW',
        gridOperationsStatus: 'PENDING_APPROVAL',
      });
      expect(pending.body.currency).toBeUndefined();
      const wallet = walk.wallet;
      const mints = `/stablecoins/${coin.body.id}/mints`;
      const revoking = await post(mints, {
        amount: '50000',
        fundingSource: { type: 'WIRE' },
        destination: { accountId: wallet },
      });
      expect(revoking.body).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_ACCOUNT_REVOKED' });
      expect((await sys.api(`/stablecoin-provider-accounts/${linked.body.id}`)).body.status).toBe('REVOKED');
      const disabled = await sys.api(`/stablecoins/${coin.body.id}`);
      expect(disabled.body).toMatchObject({ gridOperationsStatus: 'DISABLED', currency: 'REVO' });
      expect(referenceProblems('GET', `/2025-10-13/stablecoins/${coin.body.id}`, disabled.status, disabled.body))
        .toEqual(
          [],
        );
      const refused = await post(mints, {
        amount: '1000000',
        fundingSource: { type: 'WIRE' },
        destination: { accountId: wallet },
      });
      expectError(refused, 400, 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED');
      expect(referenceProblems('POST', `/2025-10-13${mints}`, refused.status, refused.body)).toEqual([]);
      expectError(
        await post('/stablecoins', {
          providerTokenIdentifier: 'REVO2',
          networkTokenIdentifier: 'btkn1revo2',
          network: 'SPARK',
          stablecoinProviderAccountId: linked.body.id,
        }),
        400,
        'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
      );
      expect((await sys.api(`/stablecoin-provider-accounts?status=REVOKED`)).body.data.map((a: { id: string }) => a.id))
        .toContain(linked.body.id);
    },
  );

  test('operations are listed most recent first, page by page, and filtered by type', async () => {
    const all = await sys.api(`/stablecoins/${walk.stablecoin.id}/operations?limit=100`);
    expect(all.status).toBe(200);
    const times = all.body.data.map((o: { createdAt: string }) => Date.parse(o.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await sys.api(
        `/stablecoins/${walk.stablecoin.id}/operations?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      ids.push(...page.body.data.map((o: { id: string }) => o.id));
      cursor = page.body.hasMore ? page.body.nextCursor : undefined;
    } while (cursor);
    expect(ids).toEqual(all.body.data.map((o: { id: string }) => o.id));
    const burns = await sys.api(`/stablecoins/${walk.stablecoin.id}/operations?operationType=BURN`);
    expect(burns.body.data.length).toBeGreaterThan(0);
    expect(burns.body.data.every((o: { operationType: string }) => o.operationType === 'BURN')).toBe(true);
    expectError(await sys.api(`/stablecoins/${walk.stablecoin.id}/operations?cursor=%%%`), 400, 'INVALID_INPUT');
  });
});

describe('404s', () => {
  test.each([
    [
      '/stablecoin-provider-accounts/StablecoinProviderAccount:00000000-0000-4000-8000-00000000dead',
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    ],
    ['/stablecoins/Stablecoin:00000000-0000-4000-8000-00000000dead', 'REFERENCE_NOT_FOUND'],
    ['/stablecoins/Stablecoin:00000000-0000-4000-8000-00000000dead/operations', 'REFERENCE_NOT_FOUND'],
    ['/stablecoin-operations/StablecoinOperation:00000000-0000-4000-8000-00000000dead', 'REFERENCE_NOT_FOUND'],
  ])('GET %s: 404 %s, valid against the reference', async (path, code) => {
    const res = await sys.api(path);
    expectError(res, 404, code);
    expect(referenceProblems('GET', `/2025-10-13${path}`, res.status, res.body)).toEqual([]);
  });

  test('a mint of a stablecoin or to an account that does not exist is 404', async () => {
    const res = await post('/stablecoins/Stablecoin:00000000-0000-4000-8000-00000000dead/mints', {
      amount: '1000000',
      fundingSource: { type: 'WIRE' },
      destination: { accountId: 'ExternalAccount:00000000-0000-4000-8000-00000000dead' },
    });
    expectError(res, 404, 'REFERENCE_NOT_FOUND');
  });
});
