import { startTestSystem, type TestSystem } from '../system-harness';
import { approvedCardholder, cardWhen } from './card-fixtures';
import { balanceOf, expectError, fund } from './payments-fixtures';
import { newKeyPair, signInWithOtp, signedHeaders, stamp, type KeyPair } from './wallet-client';

/**
 * Delegated keys (reference: Embedded Wallet Auth, /auth/delegated-keys) driven as a wallet app
 * does, with the Turnkey client libraries stamping each leg; decisioning against a card funded by
 * the embedded wallet before, during and after the key's life.
 */
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: { ACCOUNTS_KYC_STEP_MS: '30' } });
  expect(
    (await sys.api('/config', { method: 'PATCH', json: { embeddedWalletConfig: { appName: 'Cards test' } } })).status,
  ).toBe(200);
}, 180_000);
afterAll(async () => {
  await sys.stop();
});

interface Holder {
  customerId: string;
  usdAccountId: string;
  walletId: string;
  /** The wallet's session signing key (OTP sign-in). */
  key: KeyPair;
}

let seq = 0;
async function walletHolder(): Promise<Holder> {
  // An email: the embedded wallet's default EMAIL_OTP credential is tied to it.
  const holder = await approvedCardholder(sys, { email: `holder-${process.pid}-${seq++}@example.com` });
  const accounts = await sys.api(`/customers/internal-accounts?customerId=${holder.customerId}&type=EMBEDDED_WALLET`);
  const walletId: string = accounts.body.data[0].id;
  const credentials = await sys.api(`/auth/credentials?accountId=${walletId}`);
  const { key } = await signInWithOtp(
    sys.api,
    credentials.body.data.find((c: { type: string }) => c.type === 'EMAIL_OTP').id,
  );
  return { ...holder, walletId, key };
}

async function walletCard(holder: Holder, fundingSources = [holder.walletId]): Promise<string> {
  const created = await sys.api('/cards', {
    method: 'POST',
    json: { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources },
  });
  expect(created.status).toBe(201);
  await cardWhen(sys, created.body.id, (c) => c.state === 'ACTIVE');
  return created.body.id;
}

const create = (json: unknown, headers: Record<string, string> = {}) =>
  sys.api('/auth/delegated-keys', { method: 'POST', json, headers });
const signed = async (json: unknown, key: KeyPair, challenge: { payloadToSign: string; requestId: string }) =>
  create(json, signedHeaders(await stamp(key, challenge.payloadToSign), challenge.requestId));

/** The three legs: two 202 challenges, each stamped by the wallet's session key, then the key. */
async function delegate(holder: Holder, cardId: string, extra: Record<string, unknown> = {}) {
  const body = { cardId, internalAccountId: holder.walletId, nickname: 'Card payments key', ...extra };
  const first = await create(body);
  expect(first.status).toBe(202);
  const second = await signed(body, holder.key, first.body);
  expect(second.status).toBe(202);
  const third = await signed(body, holder.key, second.body);
  expect(third.status).toBe(201);
  return third.body;
}

const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };
const authorize = async (cardId: string, amount: number) => {
  const res = await sys.api(`/sandbox/cards/${cardId}/simulate/authorization`, {
    method: 'POST',
    json: { amount, currency: { code: 'USD' }, merchant },
  });
  expect(res.status).toBe(202);
};

test('three legs make an ACTIVE key; the wallet funds the card only while it is ACTIVE; revoked it stops', async () => {
  const holder = await walletHolder();
  await fund(sys, holder.walletId, 10_000);
  const cardId = await walletCard(holder);
  const wallet = () => balanceOf(sys, holder.customerId, holder.walletId);

  // No delegated key: declined, nothing held.
  await authorize(cardId, 1_000);
  expect(await wallet()).toBe(10_000);

  const body = { cardId, internalAccountId: holder.walletId, nickname: 'Card payments key' };
  const first = await create(body);
  expect(first.status).toBe(202);
  expect(Object.keys(first.body).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
  const published = JSON.parse(first.body.payloadToSign).parameters;
  expect(published).toMatchObject({
    cardId,
    accountId: holder.walletId,
    publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/),
  });
  // Nothing is listed before the wallet owner signed anything.
  expect((await sys.api(`/auth/delegated-keys?accountId=${holder.walletId}`)).body.data).toEqual([]);

  const second = await signed(body, holder.key, first.body);
  expect(second.status).toBe(202);
  expect(second.body.requestId).not.toBe(first.body.requestId);
  const pending = (await sys.api(`/auth/delegated-keys?accountId=${holder.walletId}`)).body.data;
  expect(pending).toHaveLength(1);
  expect(pending[0]).toMatchObject({
    cardId,
    accountId: holder.walletId,
    publicKey: published.publicKey,
    status: 'PENDING',
    nickname: 'Card payments key',
  });
  // PENDING cannot fund.
  await authorize(cardId, 1_000);
  expect(await wallet()).toBe(10_000);

  const third = await signed(body, holder.key, second.body);
  expect(third.status).toBe(201);
  const key = third.body;
  expect(key).toMatchObject({
    id: pending[0].id,
    status: 'ACTIVE',
    publicKey: published.publicKey,
    fundingSourceId: expect.stringMatching(/^CardFundingSource:/),
  });
  // The public key only: no private key member, whatever its name.
  expect(Object.keys(key).sort()).toEqual([
    'accountId',
    'cardId',
    'createdAt',
    'fundingSourceId',
    'id',
    'nickname',
    'publicKey',
    'status',
    'updatedAt',
  ]);
  expect((await sys.api(`/auth/delegated-keys/${key.id}`)).body).toEqual(key);
  expect((await sys.api(`/auth/delegated-keys?fundingSourceId=${key.fundingSourceId}`)).body.data).toEqual([key]);
  expect(
    (await sys.api(`/auth/delegated-keys?accountId=${holder.walletId}&fundingSourceId=${key.fundingSourceId}`)).body
      .data,
  ).toEqual([key]);

  await authorize(cardId, 1_000);
  expect(await wallet()).toBe(9_000);

  // One ACTIVE key per funding source.
  expectError(await create(body), 409, 'CONFLICT');

  expect((await sys.api(`/auth/delegated-keys/${key.id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await sys.api(`/auth/delegated-keys/${key.id}`)).body.status).toBe('REVOKED');
  expectError(await sys.api(`/auth/delegated-keys/${key.id}`, { method: 'DELETE' }), 400, 'INVALID_INPUT');
  await authorize(cardId, 1_000);
  expect(await wallet()).toBe(9_000);

  // Revoked, a new key may be delegated; the list keeps both.
  const again = await delegate(holder, cardId, { nickname: 'Second key' });
  expect(again.publicKey).not.toBe(key.publicKey);
  const listed = (await sys.api(`/auth/delegated-keys?accountId=${holder.walletId}`)).body.data;
  expect(listed.map((k: { id: string; status: string }) => [k.id, k.status]).sort()).toEqual(
    [[again.id, 'ACTIVE'], [key.id, 'REVOKED']].sort(),
  );
  await authorize(cardId, 500);
  expect(await wallet()).toBe(8_500);
});

test('a wallet source without a key is passed over for the next funding source', async () => {
  const holder = await walletHolder();
  await fund(sys, holder.walletId, 5_000);
  await fund(sys, holder.usdAccountId, 5_000);
  const cardId = await walletCard(holder, [holder.walletId, holder.usdAccountId]);
  await authorize(cardId, 700);
  expect(await balanceOf(sys, holder.customerId, holder.walletId)).toBe(5_000);
  expect(await balanceOf(sys, holder.customerId, holder.usdAccountId)).toBe(4_300);
  await delegate(holder, cardId);
  await authorize(cardId, 700);
  expect(await balanceOf(sys, holder.customerId, holder.walletId)).toBe(4_300);
});

test('wrong, replayed or foreign stamps and skipped legs are refused; identical re-sends get that leg', async () => {
  const holder = await walletHolder();
  const other = await walletHolder();
  const cardId = await walletCard(holder);
  const body = { cardId, internalAccountId: holder.walletId, nickname: 'Card payments key' };
  const first = await create(body);

  // Not the wallet's session: a stranger's key, another wallet's session.
  expectError(await signed(body, newKeyPair(), first.body), 401, 'WALLET_SIGNATURE_INVALID');
  expectError(await signed(body, other.key, first.body), 401, 'WALLET_SIGNATURE_INVALID');
  expectError(await create(body, { 'Request-Id': first.body.requestId }), 401, 'WALLET_SIGNATURE_MISSING');
  expectError(
    await create(body, { 'Service-Wallet-Signature': 'not-a-stamp', 'Request-Id': first.body.requestId }),
    401,
    'WALLET_SIGNATURE_MALFORMED',
  );
  // A leg answered with a Request-Id no challenge was issued with.
  expectError(
    await signed(body, holder.key, { ...first.body, requestId: 'Request:00000000-0000-4000-8000-000000000000' }),
    401,
    'WALLET_SIGNATURE_INVALID',
  );
  // Another body than the challenged one.
  expectError(
    await signed({ ...body, nickname: 'Other' }, holder.key, first.body),
    401,
    'WALLET_SIGNATURE_BODY_MISMATCH',
  );

  const leg2 = signedHeaders(await stamp(holder.key, first.body.payloadToSign), first.body.requestId);
  const second = await create(body, leg2);
  expect(second.status).toBe(202);
  // The identical retry of leg 2 answers the same policy challenge; another stamp over it is a second use.
  const resent = await create(body, leg2);
  expect(resent.status).toBe(202);
  expect(resent.body).toEqual(second.body);
  expectError(await signed(body, holder.key, first.body), 401, 'REQUEST_ID_ALREADY_USED');

  // Replaying leg 2's stamp on leg 3 (skipping the policy signature) is refused; the key stays PENDING.
  const replayed = await stamp(holder.key, first.body.payloadToSign);
  expectError(await create(body, signedHeaders(replayed, second.body.requestId)), 401, 'WALLET_SIGNATURE_INVALID');
  expectError(await signed(body, other.key, second.body), 401, 'WALLET_SIGNATURE_INVALID');
  const [pending] = (await sys.api(`/auth/delegated-keys?accountId=${holder.walletId}`)).body.data;
  expect(pending.status).toBe('PENDING');

  const leg3 = signedHeaders(await stamp(holder.key, second.body.payloadToSign), second.body.requestId);
  const third = await create(body, leg3);
  expect(third.status).toBe(201);
  expect(third.body.status).toBe('ACTIVE');
  const again = await create(body, leg3);
  expect(again.status).toBe(201);
  expect(again.body).toEqual(third.body);
});

test(
  "per-transaction limits: above the card currency's limit is "
    + "declined, up to it approved; limits must be in the card's currency",
  async () => {
    const holder = await walletHolder();
    await fund(sys, holder.walletId, 10_000);
    const cardId = await walletCard(holder);
    expectError(
      await create({
        cardId,
        internalAccountId: holder.walletId,
        nickname: 'k',
        spendingLimits: [{ currencyCode: 'USDB', maxPerTransaction: 100 }],
      }),
      400,
      'INVALID_INPUT',
    );
    const duplicate = await create({
      cardId,
      internalAccountId: holder.walletId,
      nickname: 'k',
      spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 100 }, {
        currencyCode: 'USD',
        maxPerTransaction: 200,
      }],
    });
    expectError(duplicate, 400, 'INVALID_INPUT');
    expect(duplicate.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'spendingLimits[1].currencyCode',
    ]);

    const key = await delegate(holder, cardId, { spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 2_000 }] });
    expect(key.spendingLimits).toEqual([{ currencyCode: 'USD', maxPerTransaction: 2_000 }]);
    await authorize(cardId, 2_001);
    expect(await balanceOf(sys, holder.customerId, holder.walletId)).toBe(10_000);
    await authorize(cardId, 2_000);
    expect(await balanceOf(sys, holder.customerId, holder.walletId)).toBe(8_000);
  },
);

test('bad requests: every invalid member listed, filters required, unknown cards, non-wallet sources 404', async () => {
  const holder = await walletHolder();
  const cardId = await walletCard(holder, [holder.walletId, holder.usdAccountId]);
  const bad = await create({ nickname: '', spendingLimits: [{ currencyCode: 'usd', maxPerTransaction: 0 }] });
  expectError(bad, 400, 'INVALID_INPUT');
  expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(
    expect.arrayContaining(['cardId', 'internalAccountId', 'nickname']),
  );
  expectError(await sys.api('/auth/delegated-keys'), 400, 'INVALID_INPUT');
  expectError(
    await create({
      cardId: 'Card:00000000-0000-4000-8000-000000000000',
      internalAccountId: holder.walletId,
      nickname: 'k',
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(
    await create({ cardId, internalAccountId: holder.usdAccountId, nickname: 'k' }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(
    await sys.api('/auth/delegated-keys/DelegatedKey:00000000-0000-4000-8000-000000000000'),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(
    await sys.api('/auth/delegated-keys/DelegatedKey:00000000-0000-4000-8000-000000000000', { method: 'DELETE' }),
    404,
    'REFERENCE_NOT_FOUND',
  );
});

test('another platform sees none of the keys, cards or wallets', async () => {
  const holder = await walletHolder();
  const cardId = await walletCard(holder);
  const key = await delegate(holder, cardId);
  const other = await sys.createPlatform();
  const as = { auth: other.auth };
  expectError(await sys.api(`/auth/delegated-keys/${key.id}`, as), 404, 'REFERENCE_NOT_FOUND');
  expectError(await sys.api(`/auth/delegated-keys/${key.id}`, { ...as, method: 'DELETE' }), 404, 'REFERENCE_NOT_FOUND');
  expect((await sys.api(`/auth/delegated-keys?accountId=${holder.walletId}`, as)).body.data).toEqual([]);
  expect((await sys.api(`/auth/delegated-keys?fundingSourceId=${key.fundingSourceId}`, as)).body.data).toEqual([]);
  expectError(
    await sys.api('/auth/delegated-keys', {
      ...as,
      method: 'POST',
      json: { cardId, internalAccountId: holder.walletId, nickname: 'k' },
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expect((await sys.api(`/auth/delegated-keys/${key.id}`)).body.status).toBe('ACTIVE');
});

test(
  'unbinding the wallet from the card revokes its key: bound '
    + 'again, the wallet needs a new key; closing the card revokes too',
  async () => {
    const holder = await walletHolder();
    await fund(sys, holder.walletId, 5_000);
    await fund(sys, holder.usdAccountId, 5_000);
    const cardId = await walletCard(holder);
    const key = await delegate(holder, cardId);
    const patch = (json: unknown) => sys.api(`/cards/${cardId}`, { method: 'PATCH', json });

    expect((await patch({ fundingSources: [holder.usdAccountId] })).status).toBe(200);
    expect((await sys.api(`/auth/delegated-keys/${key.id}`)).body.status).toBe('REVOKED');
    expect((await patch({ fundingSources: [holder.walletId] })).status).toBe(200);
    await authorize(cardId, 400);
    expect(await balanceOf(sys, holder.customerId, holder.walletId)).toBe(5_000);

    const renewed = await delegate(holder, cardId);
    expect(renewed.fundingSourceId).toBe(key.fundingSourceId);
    await authorize(cardId, 400);
    expect(await balanceOf(sys, holder.customerId, holder.walletId)).toBe(4_600);

    expect((await patch({ state: 'CLOSED' })).status).toBe(200);
    expect((await sys.api(`/auth/delegated-keys/${renewed.id}`)).body.status).toBe('REVOKED');
  },
);
