import type { TestSystem } from '../system-harness';

export interface WalkHelpers {
  post(path: string, json: unknown, idempotencyKey?: string | null): Promise<{ status: number; body: any }>;
  operationWhen(id: string, done: (op: any) => boolean, timeoutMs?: number): Promise<any>;
  platformUsdAccount(): Promise<string>;
  balance(accountId: string): Promise<number>;
  platformExternal(variant: 'USD_ACCOUNT' | 'SPARK_WALLET'): Promise<string>;
  fund(accountId: string, amount: number): Promise<unknown>;
}

export type Walk = Awaited<ReturnType<typeof stablecoinWalk>>;

/**
 * The walk, as a new user would take it: link a provider account, register a stablecoin,
 * mint 1,000.00 funded by wire, mint from the platform's internal USD account, burn to a bank account.
 */
export async function stablecoinWalk(
  sys: TestSystem,
  h: WalkHelpers,
  options: { clientId?: string; secondClientId?: string } = {},
) {
  const linked = await h.post('/stablecoin-provider-accounts', {
    provider: 'BRALE',
    apiClientId: options.clientId ?? 'walk-client',
    apiClientSecret: 'walk-secret',
  });
  expect(linked.status).toBe(201);
  const second = await h.post('/stablecoin-provider-accounts', {
    provider: 'BRALE',
    apiClientId: options.secondClientId ?? 'walk-client-2',
    apiClientSecret: 'walk-secret-2',
  });
  expect(second.status).toBe(201);
  const registered = await h.post('/stablecoins', {
    providerTokenIdentifier: 'ACME',
    networkTokenIdentifier: 'btkn1acme',
    network: 'SPARK',
    stablecoinProviderAccountId: linked.body.id,
  });
  expect(registered.status).toBe(201);
  const stablecoin = registered.body;
  expect((await sys.api(`/stablecoins/${stablecoin.id}`)).body).toEqual(stablecoin);
  const wallet = await h.platformExternal('SPARK_WALLET');
  const bank = await h.platformExternal('USD_ACCOUNT');
  const mints = `/stablecoins/${stablecoin.id}/mints`;

  const wireCreated = await h.post(mints, {
    amount: '1000000000',
    fundingSource: { type: 'WIRE' },
    destination: { accountId: wallet },
    description: 'Initial program funding mint',
  });
  expect(wireCreated.status).toBe(201);
  const wireFinal = await h.operationWhen(wireCreated.body.id, (op) => op.status === 'COMPLETED');

  const usd = await h.platformUsdAccount();
  await h.fund(usd, 200_000);
  const balanceBefore = await h.balance(usd);
  const internalCreated = await h.post(mints, {
    amount: '1500000000',
    fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd },
    destination: { accountId: wallet },
  });
  expect(internalCreated.status).toBe(201);
  const balanceAfter = await h.balance(usd);
  const internalFinal = await h.operationWhen(internalCreated.body.id, (op) => op.status === 'COMPLETED');

  const burnCreated = await h.post(`/stablecoins/${stablecoin.id}/burns`, {
    amount: '250000000',
    source: { type: 'PROVIDER_INTERNAL_BALANCE' },
    destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'ACH_CREDIT' },
  });
  expect(burnCreated.status).toBe(201);
  const burnFinal = await h.operationWhen(burnCreated.body.id, (op) => op.status === 'COMPLETED');

  return {
    accountId: linked.body.id as string,
    stablecoin,
    wallet,
    bank,
    wireMint: { created: wireCreated.body, final: wireFinal },
    internalMint: { created: internalCreated.body, final: internalFinal, balanceBefore, balanceAfter },
    burn: { created: burnCreated.body, final: burnFinal },
  };
}
