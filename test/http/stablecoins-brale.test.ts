import { externalAccountBody } from '../../services/accounts/test-fixtures/request-bodies';
import { startFakeBrale, type FakeBrale } from '../fixtures/fake-brale-server';
import { startTestSystem, type TestSystem } from '../system-harness';
import { expectError, FAST_SETTLEMENT, fund } from './payments-fixtures';
import { stablecoinWalk, type Walk } from './stablecoin-walk';

/** The same walk as stablecoins.test.ts, through the real Brale adapter against a local fake Brale. */
let sys: TestSystem;
let fake: FakeBrale;
let walk: Walk;
let seq = 0;

const key = () => `brale-walk-${process.pid}-${seq++}`;
const post = (path: string, json: unknown, idempotencyKey: string | null = key()) =>
  sys.api(path, {
    method: 'POST',
    json,
    ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
  });

async function operationWhen(id: string, done: (op: any) => boolean, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await sys.api(`/stablecoin-operations/${id}`);
    if (done(res.body) || Date.now() > deadline) return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const usdAccount = async () =>
  (await sys.api('/platform/internal-accounts?currency=USD')).body.data.find((a: any) =>
    a.balance.currency.code === 'USD'
  ).id as string;
const balance = async (id: string) =>
  (await sys.api('/platform/internal-accounts?currency=USD')).body.data.find((a: any) => a.id === id).balance
    .amount as number;

async function platformExternal(variant: 'USD_ACCOUNT' | 'SPARK_WALLET'): Promise<string> {
  const body = externalAccountBody(variant);
  if (variant === 'USD_ACCOUNT') body.accountInfo.accountNumber = `${Date.now()}${seq++}`.slice(-12);
  const res = await sys.api('/platform/external-accounts', { method: 'POST', json: body });
  expect(res.status).toBe(201);
  // The issuer adds the account to Brale under its Grid id (docs/api/stablecoins.md).
  fake.addAddress(
    'brale-acct-1',
    res.body.id,
    variant === 'USD_ACCOUNT' ? ['wire', 'ach_credit', 'ach_debit'] : ['spark'],
  );
  return res.body.id;
}

beforeAll(async () => {
  fake = await startFakeBrale({ autoFund: true });
  fake.addClient('brale-client', 'brale-secret', ['brale-acct-1']);
  fake.addClient('brale-client-2', 'walk-secret-2', ['brale-acct-2']);
  fake.addClient('walk-client', 'walk-secret', ['brale-acct-1']);
  fake.addClient('walk-client-2', 'walk-secret-2', ['brale-acct-2']);
  sys = await startTestSystem({
    env: {
      ...FAST_SETTLEMENT,
      STABLECOIN_PROVIDER: 'brale',
      BRALE_API_URL: fake.apiUrl,
      BRALE_TOKEN_URL: fake.tokenUrl,
      STABLECOIN_PROVIDER_TIMEOUT_MS: '3000',
      STABLECOIN_POLL_MS: '20',
      STABLECOIN_REVERIFY_SECONDS: '0',
      LEDGER_RECOVERY_AFTER_MS: '300',
    },
  });
  walk = await stablecoinWalk(sys, {
    post,
    operationWhen,
    platformUsdAccount: usdAccount,
    balance,
    platformExternal,
    fund: (id, amount) => fund(sys, id, amount),
  });
}, 240_000);
afterAll(async () => {
  await sys?.stop();
  await fake?.stop();
});

describe('stablecoins through the Brale adapter', () => {
  test('the walk completes: wire mint with Brale wire instructions, ledger-funded mint, burn to a bank account', () => {
    expect(walk.stablecoin).toMatchObject({
      providerTokenIdentifier: 'ACME',
      issuanceStatus: 'PROVISIONED',
      provider: 'BRALE',
    });
    expect(walk.wireMint.created.fundingInstructions).toMatchObject({ rail: 'WIRE', bankName: 'Fake Brale Bank' });
    expect(walk.wireMint.final.status).toBe('COMPLETED');
    expect(walk.internalMint.balanceBefore - walk.internalMint.balanceAfter).toBe(150_000);
    expect(walk.internalMint.final.status).toBe('COMPLETED');
    expect(walk.burn.final).toMatchObject({ status: 'COMPLETED', providerStatus: 'complete' });
  });

  test('each operation is one Brale transfer, created under the operation id as Idempotency-Key', () => {
    for (const op of [walk.wireMint.created, walk.internalMint.created, walk.burn.created]) {
      const transfers = [...fake.transfers.values()].filter((t) => t.key === `brale-acct-1/${op.id}`);
      expect([op.id, transfers.length]).toEqual([op.id, 1]);
    }
    const burn = [...fake.transfers.values()].find((t) => t.key === `brale-acct-1/${walk.burn.created.id}`)!;
    expect(burn).toMatchObject({
      amount: { value: '250.00', currency: 'USD' },
      source: { value_type: 'ACME', transfer_type: 'spark' },
      destination: { value_type: 'USD', transfer_type: 'ach_credit' },
    });
  });

  test('Brale down at creation: the operation waits CREATED; the worker submits it once; it completes', async () => {
    fake.fault('/accounts/brale-acct-1/transfers', { kind: '503' }, 3);
    const created = await post(`/stablecoins/${walk.stablecoin.id}/mints`, {
      amount: '3000000',
      fundingSource: { type: 'ACH_DEBIT', externalAccountId: walk.bank },
      destination: { accountId: walk.wallet },
    });
    expect(created.status).toBe(201);
    const done = await operationWhen(created.body.id, (op) => op.status === 'COMPLETED');
    expect(done.status).toBe('COMPLETED');
    expect([...fake.transfers.values()].filter((t) => t.key === `brale-acct-1/${created.body.id}`)).toHaveLength(1);
  });

  test('a Brale transfer that fails late fails the operation and refunds the internal account', async () => {
    const usd = await usdAccount();
    await fund(sys, usd, 10_000);
    const before = await balance(usd);
    const created = await post(`/stablecoins/${walk.stablecoin.id}/mints`, {
      amount: '50020000',
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
    const deadline = Date.now() + 10_000;
    while ((await balance(usd)) !== before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await balance(usd)).toBe(before);
  });

  test(
    'credentials Brale refuses are not linked; a link whose credentials Brale '
      + 'then refuses (invalid_client) turns REVOKED on re-verification, for good',
    async () => {
      expectError(
        await post('/stablecoin-provider-accounts', {
          provider: 'BRALE',
          apiClientId: 'brale-client',
          apiClientSecret: 'wrong',
        }),
        400,
        'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
      );
      fake.addClient('brale-client-9', 'secret-9', ['brale-acct-9']);
      const linked = await post('/stablecoin-provider-accounts', {
        provider: 'BRALE',
        apiClientId: 'brale-client-9',
        apiClientSecret: 'secret-9',
      });
      expect(linked.body).toMatchObject({ status: 'ACTIVE', providerAccountId: 'brale-acct-9' });
      fake.revoke('brale-client-9');
      const read = await sys.api(`/stablecoin-provider-accounts/${linked.body.id}`);
      expect(read.body.status).toBe('REVOKED');
      expect(read.body.lastVerifiedAt).toBe(linked.body.lastVerifiedAt);
      // working again at Brale: a revoked link stays revoked
      fake.addClient('brale-client-9', 'secret-9', ['brale-acct-9']);
      expect((await sys.api(`/stablecoin-provider-accounts/${linked.body.id}`)).body.status).toBe('REVOKED');
    },
  );
});
