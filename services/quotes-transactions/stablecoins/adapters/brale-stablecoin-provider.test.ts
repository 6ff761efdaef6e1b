import { startFakeBrale, type FakeBrale } from '../../../../test/fixtures/fake-brale-server';
import {
  ProviderCredentialsRevoked,
  ProviderRejected,
  ProviderUnavailable,
  type ProviderTransferRequest,
} from '../app/stablecoin-ports';
import { createBraleStablecoinProvider } from './brale-stablecoin-provider';

let fake: FakeBrale;
const waits: number[] = [];
const creds = { clientId: 'client-1', clientSecret: 'secret-1', environment: 'SANDBOX' as const };
const provider = () =>
  createBraleStablecoinProvider({
    apiUrl: fake.apiUrl,
    tokenUrl: fake.tokenUrl,
    timeoutMs: 300,
    attempts: 3,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
const achMint = (cents: number): ProviderTransferRequest => ({
  amountCents: cents,
  currency: 'USD',
  awaitsDeposit: false,
  source: { valueType: 'USD', transferType: 'ach_debit', gridAccountId: 'ExternalAccount:bank' },
  destination: { valueType: 'ACME', transferType: 'spark', gridAccountId: 'ExternalAccount:wallet' },
});
const creates = (key: string) => fake.requests.filter((r) => r.method === 'POST' && r.idempotencyKey === key).length;

beforeAll(async () => {
  fake = await startFakeBrale();
  fake.addClient('client-1', 'secret-1', ['acct-1']);
  fake.addClient('client-2', 'secret-2', ['acct-2', 'acct-3']);
  fake.addAddress('acct-1', 'ExternalAccount:bank', ['ach_debit', 'wire']);
  fake.addAddress('acct-1', 'ExternalAccount:wallet', ['spark']);
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  waits.length = 0;
});

describe('the Brale adapter against a local fake Brale', () => {
  test('client credentials are verified with OAuth; a wrong secret is invalid, not an error', async () => {
    expect(await provider().verifyCredentials(creds)).toEqual({ valid: true, accountIds: ['acct-1'] });
    expect(await provider().verifyCredentials({ ...creds, clientId: 'client-2', clientSecret: 'secret-2' })).toEqual({
      valid: true,
      accountIds: ['acct-2', 'acct-3'],
    });
    expect((await provider().verifyCredentials({ ...creds, clientSecret: 'wrong' })).valid).toBe(false);
  });

  test('a transfer: the operation id as Idempotency-Key, amounts as decimal strings, account names', async () => {
    const p = provider();
    const first = await p.createTransfer(creds, 'acct-1', achMint(100_000), 'StablecoinOperation:a');
    const again = await p.createTransfer(creds, 'acct-1', achMint(100_000), 'StablecoinOperation:a');
    expect(again.id).toBe(first.id);
    const stored = fake.transfers.get(first.id)!;
    expect(stored.amount).toEqual({ value: '1000.00', currency: 'USD' });
    expect(stored.source).toMatchObject({ value_type: 'USD', transfer_type: 'ach_debit' });
    expect(stored.destination).toMatchObject({ value_type: 'ACME', transfer_type: 'spark' });
    expect([...fake.transfers.values()].filter((t) => t.key === 'acct-1/StablecoinOperation:a')).toHaveLength(1);
    expect((await p.getTransfer(creds, 'acct-1', first.id)).status).toBe('processing');
    expect((await p.getTransfer(creds, 'acct-1', first.id)).status).toBe('complete');
  });

  test('5xx and timeouts are retried with the same key and never create a second transfer', async () => {
    const p = provider();
    fake.fault('/accounts/acct-1/transfers', { kind: '500' });
    fake.fault('/accounts/acct-1/transfers', { kind: 'timeout' });
    const t = await p.createTransfer(creds, 'acct-1', achMint(5_000), 'StablecoinOperation:b');
    expect(creates('StablecoinOperation:b')).toBe(3);
    expect([...fake.transfers.values()].filter((x) => x.key === 'acct-1/StablecoinOperation:b')).toHaveLength(1);
    expect(t.status).toBe('pending');
    expect(waits).toEqual([100, 200]);
  });

  test('429 waits for Retry-After; a Retry-After beyond the limit is reported as unavailable', async () => {
    fake.fault('/accounts/acct-1/transfers', { kind: '429', retryAfter: '2' });
    await provider().createTransfer(creds, 'acct-1', achMint(6_000), 'StablecoinOperation:c');
    expect(waits).toEqual([2000]);
    fake.fault('/accounts/acct-1/transfers', { kind: '429', retryAfter: '3600' });
    await expect(provider().createTransfer(creds, 'acct-1', achMint(6_000), 'StablecoinOperation:c2')).rejects
      .toBeInstanceOf(ProviderUnavailable);
  });

  test('retries are bounded: after the attempts the provider is unavailable', async () => {
    fake.fault('/accounts/acct-1/transfers', { kind: '503' }, 3);
    const before = fake.requests.length;
    await expect(provider().createTransfer(creds, 'acct-1', achMint(7_000), 'StablecoinOperation:d')).rejects
      .toBeInstanceOf(ProviderUnavailable);
    expect(fake.requests.slice(before).filter((r) => r.method === 'POST' && r.path.endsWith('/transfers')))
      .toHaveLength(3);
    expect(creates('StablecoinOperation:d')).toBe(3);
  });

  test('a refusal is not retried; an unknown address is refused before anything is sent', async () => {
    const badAmount = {
      ...achMint(8_000),
      destination: { valueType: 'ACME', transferType: 'spark', gridAccountId: 'ExternalAccount:unknown' },
    };
    await expect(provider().createTransfer(creds, 'acct-1', badAmount, 'StablecoinOperation:e')).rejects.toBeInstanceOf(
      ProviderRejected,
    );
    expect(creates('StablecoinOperation:e')).toBe(0);
  });

  test('a transfer can fail late, after processing; wire transfers carry wire instructions until funded', async () => {
    const p = provider();
    const late = await p.createTransfer(creds, 'acct-1', achMint(12_002), 'StablecoinOperation:f');
    expect((await p.getTransfer(creds, 'acct-1', late.id)).status).toBe('processing');
    expect((await p.getTransfer(creds, 'acct-1', late.id)).status).toBe('failed');
    const wire = await p.createTransfer(creds, 'acct-1', {
      ...achMint(100_000),
      awaitsDeposit: true,
      source: { valueType: 'USD', transferType: 'wire' },
    }, 'StablecoinOperation:g');
    expect(wire.fundingInstructions).toMatchObject({
      rail: 'WIRE',
      bankName: 'Fake Brale Bank',
      accountNumber: '99887766',
    });
    expect((await p.getTransfer(creds, 'acct-1', wire.id)).status).toBe('pending');
    fake.fund(wire.id);
    expect((await p.getTransfer(creds, 'acct-1', wire.id)).status).toBe('processing');
  });

  test('an expired access token (401) is replaced once and the call goes through', async () => {
    const p = provider();
    const t = await p.createTransfer(creds, 'acct-1', achMint(9_000), 'StablecoinOperation:h');
    fake.expireTokens();
    const before = fake.requests.length;
    expect((await p.getTransfer(creds, 'acct-1', t.id)).status).toBe('processing');
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path.startsWith('/oauth2') ? 'token' : 'transfer'}`))
      .toEqual(['GET transfer', 'POST token', 'GET transfer']);
  });

  test('the same Idempotency-Key with another payload is refused by Brale (422) with its JSON:API detail', async () => {
    const p = provider();
    await p.createTransfer(creds, 'acct-1', achMint(10_000), 'StablecoinOperation:i');
    const refused = p.createTransfer(creds, 'acct-1', achMint(10_001), 'StablecoinOperation:i');
    await expect(refused).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining("can't be reused with a different payload"),
    });
    expect([...fake.transfers.values()].filter((x) => x.key === 'acct-1/StablecoinOperation:i')).toHaveLength(1);
  });

  test('a token Brale does not know is absent; revoked credentials are refused', async () => {
    expect(await provider().token(creds, 'acct-1', 'UNKNOWN9')).toBeUndefined();
    expect(await provider().token(creds, 'acct-1', 'ACME')).toMatchObject({
      symbol: 'ACME',
      decimals: 6,
      baseCurrency: 'USD',
      issuanceStatus: 'PROVISIONED',
    });
    const p = provider();
    fake.addClient('client-3', 'secret-3', ['acct-4']);
    const three = { ...creds, clientId: 'client-3', clientSecret: 'secret-3' };
    expect((await p.verifyCredentials(three)).valid).toBe(true);
    fake.revoke('client-3');
    expect(await p.verifyCredentials(three)).toMatchObject({ valid: false, revoked: true });
    // Any later call: the cached access token is refused (401), a fresh one is refused as invalid_client.
    await expect(p.createTransfer(three, 'acct-4', achMint(100), 'op-revoked')).rejects.toBeInstanceOf(
      ProviderCredentialsRevoked,
    );
    await expect(p.getTransfer(three, 'acct-4', 'whatever')).rejects.toBeInstanceOf(ProviderCredentialsRevoked);
    // A wrong secret from the start is refused the same way: the link is never stored (not REVOKED).
    expect(await p.verifyCredentials({ ...creds, clientSecret: 'wrong' })).toMatchObject({ valid: false });
  });
});
