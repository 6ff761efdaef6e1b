import { p256 } from '@noble/curves/nist';
import { createEventFactory } from '../../../../lib/bus/event-factory';
import { createAesGcmSealer } from '../../../../lib/sealing/aes-gcm-sealer';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { createDelegatedKeyCustody } from '../adapters/delegated-key-custody';
import type { Card } from '../../cards/domain/card';
import { ledgerStep, systemAccount } from '../../ledger/domain/ledger-postings';
import { createCardTransactionDocumentStore } from '../../cards/store/card-transaction-document-store';
import { createDelegatedKeyDocumentStore, DELEGATED_KEYS_COLLECTION } from '../store/delegated-key-document-store';
import { createLedgerDocumentStore } from '../../ledger/store/ledger-document-store';
import { createCardAuthorizations } from '../../cards/app/card-authorizations';
import { createLedger } from '../../ledger/app/ledger';
import { createDelegatedKeys, type WalletSignatures } from './delegated-keys';

const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
const caller = { platformId: PLATFORM };
const WALLET = 'InternalAccount:aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const CARD = 'Card:019542f5-b3e7-1d02-0000-000000000010';
const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF' };

/**
 * The auth service's part, reduced to what the legs rely on: one claim per challenge, the stamp "valid" when it names
 * the request.
 */
function signatures(): WalletSignatures {
  const issued = new Map<string, { claimedBy?: string }>();
  let n = 0;
  return {
    async begin() {
      const requestId = `Request:00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
      issued.set(requestId, {});
      return { payloadToSign: `payload ${requestId}`, requestId, expiresAt: '2099-01-01T00:00:00Z' };
    },
    async complete(_caller, input) {
      const challenge = issued.get(input.signature.requestId ?? '');
      if (!challenge || input.signature.stamp !== `stamp ${input.signature.requestId}`) throw new Error('refused');
      if (challenge.claimedBy) return { state: 'SETTLED', requestId: input.signature.requestId! };
      challenge.claimedBy = input.signature.stamp;
      return { state: 'CLAIMED', requestId: input.signature.requestId! };
    },
    async settle() {},
  };
}

const clock = { now: new Date() };

async function setup() {
  clock.now = new Date();
  const store = createEmbeddedDocumentStore();
  const keyStore = createDelegatedKeyDocumentStore(store);
  await keyStore.ensureIndexes();
  const ledger = createLedger({
    store: createLedgerDocumentStore(store, () => new Date()).ledger,
    newEvent: createEventFactory(),
  });
  const sealer = createAesGcmSealer(Buffer.alloc(32, 7));
  const card: Card = {
    id: CARD,
    platformId: PLATFORM,
    cardholderId: 'Customer:1',
    platformCardId: 'c',
    state: 'ACTIVE',
    stateReason: null,
    form: 'VIRTUAL',
    fundingSources: [WALLET],
    walletSources: [WALLET],
    currency: 'USD',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const keys = createDelegatedKeys({
    store: keyStore,
    custody: createDelegatedKeyCustody(sealer),
    signatures: signatures(),
    clock: () => clock.now,
    card: async () => card,
  });
  const authorizations = createCardAuthorizations({
    store: createCardTransactionDocumentStore(store).port,
    ledger,
    newEvent: createEventFactory(),
    clock: () => new Date(),
    card: async () => card,
    platformCustomerId: async () => 'holder-1',
    delegation: keys.refusal,
  });
  const fund = (amount: number) =>
    ledger.post(
      PLATFORM,
      ledgerStep(`fund/${Math.random()}`, [
        { account: WALLET, currency: 'USD', amount },
        { account: systemAccount('settlement', 'USD', PLATFORM), currency: 'USD', amount: -amount },
      ]),
    );
  const delegate = async (spendingLimits?: { currencyCode: string; maxPerTransaction: number }[]) => {
    const request = {
      cardId: CARD,
      internalAccountId: WALLET,
      nickname: 'k',
      ...(spendingLimits ? { spendingLimits } : {}),
    };
    let outcome = await keys.create(caller, request, {});
    for (let leg = 0; leg < 2 && outcome.kind === 'challenge'; leg++) {
      const { requestId } = outcome.challenge;
      outcome = await keys.create(caller, request, { stamp: `stamp ${requestId}`, requestId });
    }
    if (outcome.kind !== 'key') throw new Error('not created');
    return outcome.key;
  };
  const available = async () => (await ledger.getBalances([WALLET], PLATFORM)).reduce((sum, b) => sum + b.available, 0);
  return { store, sealer, keys, authorizations, fund, delegate, available, card };
}

const reasonOf = (
  d: Awaited<ReturnType<Awaited<ReturnType<typeof setup>>['authorizations']['authorize']>>,
) => (d.approved ? 'APPROVED' : d.reason);

test('decline reasons of a wallet source: no ACTIVE key, then over its limit; revoked, no key again', async () => {
  const { keys, authorizations, fund, delegate } = await setup();
  await fund(10_000);
  expect(reasonOf(await authorizations.authorize(caller, CARD, { amount: 100, merchant }))).toBe(
    'DELEGATED_KEY_REQUIRED',
  );
  const key = await delegate([{ currencyCode: 'USD', maxPerTransaction: 1_000 }]);
  expect(reasonOf(await authorizations.authorize(caller, CARD, { amount: 1_001, merchant }))).toBe(
    'SPENDING_LIMIT_EXCEEDED',
  );
  expect(reasonOf(await authorizations.authorize(caller, CARD, { amount: 1_000, merchant }))).toBe('APPROVED');
  await keys.revoke(caller, key.id);
  expect(reasonOf(await authorizations.authorize(caller, CARD, { amount: 100, merchant }))).toBe(
    'DELEGATED_KEY_REQUIRED',
  );
  await delegate();
  // An ACTIVE key without limits: the ledger still decides.
  expect(reasonOf(await authorizations.authorize(caller, CARD, { amount: 9_001, merchant }))).toBe(
    'INSUFFICIENT_FUNDS',
  );
  expect(reasonOf(await authorizations.authorize(caller, CARD, { amount: 9_000, merchant }))).toBe('APPROVED');
});

test('the private key is stored only sealed to its key id, and opens to the published public key', async () => {
  const { store, sealer, delegate } = await setup();
  const key = await delegate();
  const [doc] = await store.collection(DELEGATED_KEYS_COLLECTION).find({ _id: key.id });
  const sealed = doc!.sealedPrivateKey as string;
  expect(sealed).toMatch(/^v1\./);
  const secret = sealer.open(sealed, key.id);
  expect(JSON.stringify(doc)).not.toContain(secret);
  expect(Buffer.from(p256.getPublicKey(Buffer.from(secret, 'hex'), true)).toString('hex')).toBe(key.publicKey);
  // Copied onto another record, it does not open.
  expect(() => sealer.open(sealed, 'DelegatedKey:other')).toThrow();
});

test('two flows for one funding source: the second to activate is refused CONFLICT; one key is ACTIVE', async () => {
  const { keys } = await setup();
  const request = { cardId: CARD, internalAccountId: WALLET, nickname: 'k' };
  const legs = async () => {
    const first = await keys.create(caller, request, {});
    if (first.kind !== 'challenge') throw new Error('no challenge');
    const second = await keys.create(caller, request, {
      stamp: `stamp ${first.challenge.requestId}`,
      requestId: first.challenge.requestId,
    });
    if (second.kind !== 'challenge') throw new Error('no second challenge');
    return second.challenge.requestId;
  };
  const [a, b] = [await legs(), await legs()];
  const results = await Promise.allSettled(
    [a, b].map((requestId) => keys.create(caller, request, { stamp: `stamp ${requestId}`, requestId })),
  );
  expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'CONFLICT' } });
  const listed = await keys.list(caller, { accountId: WALLET });
  expect(listed.map((k) => k.status).sort()).toEqual(['ACTIVE', 'PENDING']);
});

test('keys whose first challenge was never signed are purged once old; PENDING and ACTIVE ones stay', async () => {
  const { store, keys, delegate } = await setup();
  const request = { cardId: CARD, internalAccountId: WALLET, nickname: 'abandoned' };
  await keys.create(caller, request, {});
  const first = await keys.create(caller, request, {});
  if (first.kind !== 'challenge') throw new Error('no challenge');
  await keys.create(caller, request, {
    stamp: `stamp ${first.challenge.requestId}`,
    requestId: first.challenge.requestId,
  });
  const active = await delegate();
  const all = () => store.collection(DELEGATED_KEYS_COLLECTION).find({});
  expect((await all()).map((d) => d.status).sort()).toEqual(['ACTIVE', 'CREATING', 'PENDING']);
  expect(await keys.purgeAbandoned(60_000)).toBe(0);
  clock.now = new Date(clock.now.getTime() + 61_000);
  expect(await keys.purgeAbandoned(60_000)).toBe(1);
  expect((await all()).map((d) => d.status).sort()).toEqual(['ACTIVE', 'PENDING']);
  expect((await keys.get(caller, active.id)).status).toBe('ACTIVE');
});

test("an advice grows a wallet hold only within the key's limit, key ACTIVE: else EXCEPTION, no move", async () => {
  const { keys, authorizations, fund, delegate, available } = await setup();
  await fund(10_000);
  const key = await delegate([{ currencyCode: 'USD', maxPerTransaction: 1_000 }]);
  const first = await authorizations.authorize(caller, CARD, { amount: 500, merchant });
  if (!first.approved) throw new Error('declined');
  expect(await authorizations.advise(caller, CARD, first.transaction.id, 1_000)).toMatchObject({
    status: 'AUTHORIZED',
    held: 1_000,
  });
  const over = await authorizations.advise(caller, CARD, first.transaction.id, 1_001);
  expect(over).toMatchObject({ status: 'EXCEPTION', held: 1_000, authorizedAmount: 1_000 });
  expect(over.exceptionReason).toContain('SPENDING_LIMIT_EXCEEDED');
  expect(await available()).toBe(9_000);

  const second = await authorizations.authorize(caller, CARD, { amount: 400, merchant });
  if (!second.approved) throw new Error('declined');
  await keys.revoke(caller, key.id);
  // Shrinking gives money back, key or not.
  expect(await authorizations.advise(caller, CARD, second.transaction.id, 300)).toMatchObject({
    status: 'AUTHORIZED',
    held: 300,
  });
  const revoked = await authorizations.advise(caller, CARD, second.transaction.id, 350);
  expect(revoked).toMatchObject({ status: 'EXCEPTION', held: 300 });
  expect(revoked.exceptionReason).toContain('DELEGATED_KEY_REQUIRED');
  expect(await available()).toBe(10_000 - 1_000 - 300);
});

test("a card change whose key revocation a crash lost: repaired by the sweep; bound wallets' keys stay", async () => {
  const { keys, authorizations, fund, delegate, card } = await setup();
  await fund(10_000);
  const key = await delegate();
  expect(await keys.revokeStale()).toBe(0);
  // The card store took the change, the process died before bindingsChanged ran.
  card.fundingSources = ['InternalAccount:bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'];
  card.walletSources = [];
  expect((await keys.get(caller, key.id)).status).toBe('ACTIVE');
  expect(await keys.revokeStale(1)).toBe(1);
  expect((await keys.get(caller, key.id)).status).toBe('REVOKED');
  // Bound again: the old consent does not come back with it.
  card.fundingSources = [WALLET];
  card.walletSources = [WALLET];
  expect(reasonOf(await authorizations.authorize(caller, CARD, { amount: 100, merchant }))).toBe(
    'DELEGATED_KEY_REQUIRED',
  );
  const again = await delegate();
  expect(await keys.revokeStale()).toBe(0);
  // Closed without its hook: revoked too.
  card.state = 'CLOSED';
  expect(await keys.revokeStale()).toBe(1);
  expect((await keys.get(caller, again.id)).status).toBe('REVOKED');
});
