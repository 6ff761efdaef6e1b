import { randomBytes } from 'node:crypto';
import { newEvent } from '../../../../lib/bus/outbox';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { createAesGcmSealer } from '../../../../lib/sealing/aes-gcm-sealer';
import { createSandboxStablecoinProvider } from '../adapters/sandbox-stablecoin-provider';
import { ledgerStep, systemAccount } from '../../ledger/domain/ledger-postings';
import { createLedgerDocumentStore } from '../../ledger/store/ledger-document-store';
import { createStablecoinDocumentStore } from '../store/stablecoin-document-store';
import { createLedger } from '../../ledger/app/ledger';
import { createOperationProgress, transferRequestOf } from './operation-progress';
import { createProviderAccounts } from './provider-accounts';
import {
  OperationKeyTaken,
  ProviderUnavailable,
  type OperationRecord,
  type StablecoinProvider,
} from './stablecoin-ports';

const platformId = 'Platform:1';
const usd = 'InternalAccount:00000000-0000-4000-8000-000000000001';

async function setup(wrap: (provider: StablecoinProvider) => StablecoinProvider = (p) => p) {
  const documents = createEmbeddedDocumentStore();
  let now = new Date('2026-05-20T16:40:00Z');
  const clock = () => now;
  const provider = wrap(createSandboxStablecoinProvider({ store: documents, clock, stepMs: 1000 }));
  const store = createStablecoinDocumentStore(documents);
  await store.ensureIndexes();
  const accounts = createProviderAccounts({
    store,
    provider,
    sealer: createAesGcmSealer(randomBytes(32)),
    environment: 'SANDBOX',
    clock,
    reverifyAfterMs: 60_000,
  });
  const ledger = createLedger({ store: createLedgerDocumentStore(documents, clock).ledger, newEvent, clock });
  await ledger.post(
    platformId,
    ledgerStep('fund', [{ account: usd, currency: 'USD', amount: 100_000 }, {
      account: systemAccount('settlement', 'USD', platformId),
      currency: 'USD',
      amount: -100_000,
    }]),
  );
  const link = await accounts.link({ platformId }, { provider: 'BRALE', apiClientId: 'client', apiClientSecret: 's' });
  const progress = createOperationProgress({
    store,
    provider,
    accounts,
    ledger,
    clock,
    resubmitAfterMs: 5_000,
    backoff: { baseMs: 1_000, maxMs: 4_000 },
  });
  const balance = async () => (await ledger.getBalances([usd], platformId))[0].available;
  const transfers = () => documents.collection('sandbox_stablecoin_transfers').countDocuments({});
  const operation = (id: string, cents: number): OperationRecord => ({
    id,
    platformId,
    stablecoinId: 'Stablecoin:1',
    operationType: 'MINT',
    status: 'CREATED',
    amount: String(cents * 10_000),
    cents,
    currency: 'USD',
    valueType: 'ACME',
    provider: 'BRALE',
    providerEnvironment: 'SANDBOX',
    stablecoinProviderAccountId: link.id,
    source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd },
    destination: { accountId: 'ExternalAccount:w' },
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  });
  return {
    store,
    provider,
    accounts,
    link,
    progress,
    balance,
    transfers,
    operation,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

describe('operation progress, repeated as a crash repeats it', () => {
  test('a crash after the provider call, before our write: the worker repeats it, same key, one transfer', async () => {
    const s = await setup();
    const op = s.operation('StablecoinOperation:a', 10_000);
    await s.store.insertOperation(op);
    await s.progress.submit(op); // debited and submitted
    // The state a crash leaves when the provider answered but our write did not happen: CREATED again.
    await s.store.moveOperation(op.id, ['PENDING_PROVIDER'], { status: 'CREATED', providerTransferId: undefined });
    const again = await s.provider.createTransfer(
      s.accounts.credentialsOf(s.link),
      s.link.providerAccountId,
      transferRequestOf(op),
      op.id,
    );
    expect(await s.progress.refresh((await s.store.operation(platformId, op.id))!)).toMatchObject({
      status: 'CREATED',
    }); // within the grace: left to its request
    s.advance(5_000);
    const resumed = await s.progress.refresh({ ...(await s.store.operation(platformId, op.id))!, ledgerDebited: true });
    // the sandbox finished it meanwhile
    expect(resumed).toMatchObject({ status: 'COMPLETED', providerTransferId: again.id });
    expect(await s.transfers()).toBe(1);
    expect(await s.balance()).toBe(90_000);
  });

  test('a crash between our insert and the ledger debit: the worker debits once, however often it runs', async () => {
    const s = await setup();
    const op = s.operation('StablecoinOperation:b', 2_500);
    await s.store.insertOperation(op);
    s.advance(5_000);
    await Promise.all([s.progress.tick(), s.progress.tick()]);
    await s.progress.tick();
    expect(await s.balance()).toBe(97_500);
    expect(await s.transfers()).toBe(1);
  });

  test('a crash after the debit applied, before it was noted: the worker submits it, no double debit', async () => {
    const s = await setup();
    const op = s.operation('StablecoinOperation:e', 4_000);
    await s.store.insertOperation(op);
    // The debit's step went in (journaled and applied); the crash came before the operation noted it.
    await s.progress.submit(op);
    await s.store.moveOperation(op.id, ['PENDING_PROVIDER'], {
      status: 'CREATED',
      ledgerDebited: undefined,
      providerTransferId: undefined,
    });
    s.advance(5_000);
    await s.progress.tick();
    expect(await s.store.operation(platformId, op.id)).toMatchObject({ status: 'COMPLETED', ledgerDebited: true });
    expect(await s.balance()).toBe(96_000);
    expect(await s.transfers()).toBe(1);
  });

  test('an operation holds its Idempotency-Key: a second one under the same key is refused by the store', async () => {
    const s = await setup();
    const keyed = { ...s.operation('StablecoinOperation:f', 100), idempotency: { key: 'k-1', hash: 'h' } };
    await s.store.insertOperation(keyed);
    await expect(s.store.insertOperation({ ...keyed, id: 'StablecoinOperation:g' })).rejects.toBeInstanceOf(
      OperationKeyTaken,
    );
    expect(await s.store.operationByIdempotencyKey(platformId, 'k-1')).toMatchObject({ id: keyed.id });
    await s.store.insertOperation({
      ...s.operation('StablecoinOperation:h', 100),
      idempotency: { key: 'k-2', hash: 'h' },
    });
  });

  test('a late provider failure refunds exactly once; an unfunded wire expires', async () => {
    const s = await setup();
    const op = s.operation('StablecoinOperation:c', 1_202);
    await s.store.insertOperation(op);
    await s.progress.submit(op);
    expect(await s.balance()).toBe(100_000 - 1_202);
    s.advance(2_500);
    for (let i = 0; i < 3; i++) await s.progress.tick();
    expect(await s.store.operation(platformId, op.id)).toMatchObject({
      status: 'FAILED',
      failureReason: 'PROVIDER_TRANSFER_FAILED',
      ledgerRefunded: true,
    });
    expect(await s.balance()).toBe(100_000);

    const wire: OperationRecord = {
      ...s.operation('StablecoinOperation:d', 303),
      source: { type: 'WIRE' },
      expiresAt: '2026-05-20T16:41:00Z',
    };
    await s.store.insertOperation(wire);
    expect((await s.progress.submit(wire)).status).toBe('PENDING_FUNDING');
    s.advance(60_000);
    await s.progress.tick();
    expect(await s.store.operation(platformId, wire.id)).toMatchObject({
      status: 'EXPIRED',
      failureReason: 'FUNDING_NOT_RECEIVED',
    });
  });

  test('a backlog stuck on an unavailable provider does not starve newer operations; each backs off', async () => {
    const attempts = new Map<string, number>();
    const s = await setup((p) => ({
      ...p,
      async createTransfer(credentials, accountId, request, key) {
        attempts.set(key, (attempts.get(key) ?? 0) + 1);
        if (request.amountCents === 777) throw new ProviderUnavailable('provider down for this backlog');
        return p.createTransfer(credentials, accountId, request, key);
      },
    }));
    const stuck = ['e1', 'e2', 'e3', 'e4'].map((n) => s.operation(`StablecoinOperation:${n}`, 777));
    for (const op of stuck) await s.store.insertOperation({ ...op, source: { type: 'WIRE' } });
    s.advance(1);
    const fresh = { ...s.operation('StablecoinOperation:f', 500), source: { type: 'WIRE' as const } };
    await s.store.insertOperation(fresh);
    s.advance(5_000);
    // Two per pass: the 4 older stuck ones take the first two passes, the newer one is reached on the third.
    for (let pass = 0; pass < 3; pass++) await s.progress.tick(2);
    expect((await s.store.operation(platformId, fresh.id))!.status).toBe('PENDING_FUNDING');
    expect(stuck.map((op) => attempts.get(op.id))).toEqual([1, 1, 1, 1]);
    // Not due again before their backoff: further passes leave them alone.
    await s.progress.tick(2);
    expect(stuck.map((op) => attempts.get(op.id))).toEqual([1, 1, 1, 1]);
    s.advance(1_000);
    for (let pass = 0; pass < 3; pass++) await s.progress.tick(2);
    expect(stuck.map((op) => attempts.get(op.id))).toEqual([2, 2, 2, 2]);
    expect(await s.store.operation(platformId, 'StablecoinOperation:e1')).toMatchObject({
      status: 'CREATED',
      failedAttempts: 2,
    });
    s.advance(1_000); // the second failure in a row waits 2 s
    await s.progress.tick(10);
    expect(stuck.map((op) => attempts.get(op.id))).toEqual([2, 2, 2, 2]);
    s.advance(1_000);
    await s.progress.tick(10);
    expect(stuck.map((op) => attempts.get(op.id))).toEqual([3, 3, 3, 3]);
  });

  test("a wire arriving just before expiry is followed to the end, not expired (it can't be cancelled)", async () => {
    const s = await setup();
    const wire: OperationRecord = {
      ...s.operation('StablecoinOperation:g', 300),
      source: { type: 'WIRE' },
      expiresAt: '2026-05-20T16:40:01Z',
    };
    await s.store.insertOperation(wire);
    expect((await s.progress.submit(wire)).status).toBe('PENDING_FUNDING');
    s.advance(60_000); // past its expiry; meanwhile the sandbox received the funds and completed the transfer
    await s.progress.tick();
    expect(await s.store.operation(platformId, wire.id)).toMatchObject({
      status: 'COMPLETED',
      providerStatus: 'complete',
    });
  });
});
