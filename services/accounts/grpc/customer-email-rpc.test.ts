import { configChangesOf, customerFieldsOf } from '../test-fixtures/request-bodies';
import { randomUUID } from 'node:crypto';
import type { AppError } from '../../../lib/errors';
import { internalAccountId } from '../domain/name-based-id';
import { startAccountsService, type AccountsHarness } from '../test-fixtures/accounts-service-harness';

let h: AccountsHarness;
let wallets: { platformId: string };
beforeAll(async () => {
  h = await startAccountsService({
    ACCOUNTS_PLATFORM_CURRENCIES: 'USD,USDC',
    ACCOUNTS_EMBEDDED_WALLET_CURRENCY: 'USDC',
  });
  wallets = await h.newPlatform();
  await h.client.updatePlatformConfig({
    changes: configChangesOf({ embeddedWalletConfig: { appName: 'Acme Wallet' } }),
  }, wallets);
});
afterAll(() => h.stop());

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (err: AppError) => err.code);
const SIGNED = (requestId: string) => ({ stamp: 'any-stamp', requestId });

async function walletCustomer(platform = wallets) {
  const email = `c-${randomUUID().slice(0, 8)}@example.com`;
  const { customer } = await h.client.createCustomer({
    customer: customerFieldsOf({ customerType: 'INDIVIDUAL', email }),
  }, platform);
  return { id: customer!.id, email, walletId: internalAccountId(customer!.id, 'USDC', 'EMBEDDED_WALLET') };
}

const emailOf = async (id: string) => (await h.client.getCustomer({ id }, wallets)).customer!.email;

/** The first call, answered with a challenge. */
async function challenge(id: string, body: Record<string, unknown>) {
  const answer = await h.client.updateCustomer({ id, changes: customerFieldsOf(body) }, wallets);
  expect(answer.customer).toBeUndefined();
  return answer.challenge!;
}

describe('UpdateCustomer changing an email tied to EMAIL_OTP credentials', () => {
  test('challenge, then the signed retry changes credentials and customer; identical retries answer it', async () => {
    const c = await walletCustomer();
    const body = { customerType: 'INDIVIDUAL', email: 'moved@example.com' };
    const first = await challenge(c.id, body);
    expect(first).toEqual({
      type: 'EMAIL_OTP',
      payloadToSign: expect.any(String),
      requestId: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(h.signedRetry.challenges.get(first.requestId)).toMatchObject({
      operation: 'customer.update',
      targetId: c.id,
      signerAccountIds: [c.walletId],
      parameters: { userEmail: 'moved@example.com', accountIds: [c.walletId] },
    });
    expect(await emailOf(c.id)).toBe(c.email);

    const { customer } = await h.client.updateCustomer({
      id: c.id,
      changes: customerFieldsOf(body),
      signature: SIGNED(first.requestId),
    }, wallets);
    expect(customer).toMatchObject({ id: c.id, email: 'moved@example.com' });
    expect(h.walletAuth.emails.get(c.walletId)).toBe('moved@example.com');
    expect(h.signedRetry.challenges.get(first.requestId)).toMatchObject({
      state: 'SETTLED',
      result: { customerId: c.id, revision: 2 },
    });
    const again = await h.client.updateCustomer({
      id: c.id,
      changes: customerFieldsOf(body),
      signature: SIGNED(first.requestId),
    }, wallets);
    expect(again.customer).toMatchObject({ id: c.id, email: 'moved@example.com', updatedAt: customer!.updatedAt });
  });

  test('credentials refusing the email: EMAIL_OTP_CREDENTIAL_SYNC_FAILED, both unchanged, retry settled', async () => {
    const c = await walletCustomer();
    const body = { customerType: 'INDIVIDUAL', email: 'refused@example.com' };
    const { requestId } = await challenge(c.id, body);
    h.walletAuth.syncFailures.push('EMAIL_OTP_CREDENTIAL_SYNC_FAILED');
    const calls = h.walletAuth.syncCalls.length;
    expect(
      await codeOf(
        h.client.updateCustomer({ id: c.id, changes: customerFieldsOf(body), signature: SIGNED(requestId) }, wallets),
      ),
    ).toBe('EMAIL_OTP_CREDENTIAL_SYNC_FAILED');
    expect(h.walletAuth.syncCalls.slice(calls)).toEqual([{
      accountIds: [c.walletId],
      newEmail: 'refused@example.com',
    }]);
    expect([await emailOf(c.id), h.walletAuth.emails.get(c.walletId)]).toEqual([c.email, c.email]);
    expect(
      await codeOf(
        h.client.updateCustomer({ id: c.id, changes: customerFieldsOf(body), signature: SIGNED(requestId) }, wallets),
      ),
    ).toBe('EMAIL_OTP_CREDENTIAL_SYNC_FAILED');
    // The claim was released: a new change goes through.
    const next = await challenge(c.id, body);
    expect(
      (await h.client.updateCustomer(
        { id: c.id, changes: customerFieldsOf(body), signature: SIGNED(next.requestId) },
        wallets,
      )).customer!.email,
    ).toBe('refused@example.com');
  });

  test('an unknown sync outcome (auth unreachable) puts the credentials back on the old email', async () => {
    const c = await walletCustomer();
    const body = { customerType: 'INDIVIDUAL', email: 'lost@example.com' };
    const { requestId } = await challenge(c.id, body);
    h.walletAuth.syncFailures.push('UNAVAILABLE');
    const calls = h.walletAuth.syncCalls.length;
    expect(
      await codeOf(
        h.client.updateCustomer({ id: c.id, changes: customerFieldsOf(body), signature: SIGNED(requestId) }, wallets),
      ),
    ).toBe('EMAIL_OTP_CREDENTIAL_SYNC_FAILED');
    expect(h.walletAuth.syncCalls.slice(calls).map((s) => s.newEmail)).toEqual(['lost@example.com', c.email]);
    expect(await emailOf(c.id)).toBe(c.email);
  });

  test('the customer write fails after the sync (UMA address taken): the credentials are synced back', async () => {
    const other = await walletCustomer();
    const taken = (await h.client.getCustomer({ id: other.id }, wallets)).customer!.umaAddress;
    const c = await walletCustomer();
    const body = { customerType: 'INDIVIDUAL', email: 'new@example.com', umaAddress: taken };
    const { requestId } = await challenge(c.id, body);
    const calls = h.walletAuth.syncCalls.length;
    expect(
      await codeOf(
        h.client.updateCustomer({ id: c.id, changes: customerFieldsOf(body), signature: SIGNED(requestId) }, wallets),
      ),
    ).toBe('CONFLICT');
    expect(h.walletAuth.syncCalls.slice(calls).map((s) => s.newEmail)).toEqual(['new@example.com', c.email]);
    expect([await emailOf(c.id), h.walletAuth.emails.get(c.walletId)]).toEqual([c.email, c.email]);
    expect(h.signedRetry.challenges.get(requestId)).toMatchObject({ state: 'FAILED', error: { code: 'CONFLICT' } });
  });

  test('another email change under way: CONFLICT before any sync; a stale one is taken over', async () => {
    const c = await walletCustomer();
    const body = { customerType: 'INDIVIDUAL', email: 'second@example.com' };
    const customers = h.store.collection('customers');
    await customers.updateOne({ _id: c.id }, {
      $set: { emailChange: { requestId: 'Request:other', startedAt: new Date().toISOString() } },
    });
    const { requestId } = await challenge(c.id, body);
    const calls = h.walletAuth.syncCalls.length;
    expect(
      await codeOf(
        h.client.updateCustomer({ id: c.id, changes: customerFieldsOf(body), signature: SIGNED(requestId) }, wallets),
      ),
    ).toBe('CONFLICT');
    expect(h.walletAuth.syncCalls.length).toBe(calls);

    await customers.updateOne({ _id: c.id }, {
      $set: { emailChange: { requestId: 'Request:other', startedAt: '2020-01-01T00:00:00.000Z' } },
    });
    const retried = await challenge(c.id, body);
    expect(
      (await h.client.updateCustomer({
        id: c.id,
        changes: customerFieldsOf(body),
        signature: SIGNED(retried.requestId),
      }, wallets)).customer!.email,
    ).toBe('second@example.com');
    expect((await customers.findOne({ _id: c.id }))?.emailChange).toBeUndefined();
  });

  test('an identical retry while the claimant works answers PROCESSING; a changed body: the retry error', async () => {
    const c = await walletCustomer();
    const body = { customerType: 'INDIVIDUAL', email: 'busy@example.com' };
    const { requestId } = await challenge(c.id, body);
    expect(
      await codeOf(
        h.client.updateCustomer({
          id: c.id,
          changes: customerFieldsOf({ ...body, email: 'other@example.com' }),
          signature: SIGNED(requestId),
        }, wallets),
      ),
    )
      .toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    expect(
      await codeOf(
        h.client.updateCustomer({ id: c.id, changes: customerFieldsOf(body), signature: { requestId } }, wallets),
      ),
    ).toBe('WALLET_SIGNATURE_MISSING');
    h.signedRetry.challenges.get(requestId)!.state = 'CLAIMED';
    expect(
      await h.client.updateCustomer(
        { id: c.id, changes: customerFieldsOf(body), signature: SIGNED(requestId) },
        wallets,
      ),
    ).toEqual({
      processing: { message: expect.any(String) },
    });
    expect(await emailOf(c.id)).toBe(c.email);
  });

  test('customers without tied credentials update at once, signature headers ignored', async () => {
    const plain = await h.newPlatform();
    const { customer } = await h.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL', email: 'plain@example.com' }),
    }, plain);
    const body = { customerType: 'INDIVIDUAL', email: 'plain2@example.com' };
    expect(
      (await h.client.updateCustomer({ id: customer!.id, changes: customerFieldsOf(body) }, plain)).customer!.email,
    ).toBe('plain2@example.com');
    expect(
      (await h.client.updateCustomer({
        id: customer!.id,
        changes: customerFieldsOf({ ...body, email: 'p3@example.com' }),
        signature: SIGNED('Request:x'),
      }, plain)).customer!.email,
    )
      .toBe('p3@example.com');
    // Other members of a tied customer need no signature either.
    const c = await walletCustomer();
    expect(
      (await h.client.updateCustomer({
        id: c.id,
        changes: customerFieldsOf({ customerType: 'INDIVIDUAL', fullName: 'Ana' }),
      }, wallets)).customer!.fullName,
    ).toBe('Ana');
  });
});

test("the repair sweep puts an abandoned change's credentials back on the customer email; live ones stay", async () => {
  const [abandoned, running] = [await walletCustomer(), await walletCustomer()];
  const customers = h.store.collection('customers');
  // As a crash between the credentials' sync and the customer write leaves it.
  for (
    const [c, startedAt] of [[abandoned, '2020-01-01T00:00:00.000Z'], [running, new Date().toISOString()]] as const
  ) {
    h.walletAuth.emails.set(c.walletId, 'half-way@example.com');
    await customers.updateOne({ _id: c.id }, { $set: { emailChange: { requestId: 'Request:crashed', startedAt } } });
  }
  expect((await h.repair.sweep({ graceMs: 0 })).emailChangesReconciled).toBe(1);
  expect(h.walletAuth.emails.get(abandoned.walletId)).toBe(abandoned.email);
  expect((await customers.findOne({ _id: abandoned.id }))?.emailChange).toBeUndefined();
  expect(h.walletAuth.emails.get(running.walletId)).toBe('half-way@example.com');
  expect((await customers.findOne({ _id: running.id }))?.emailChange).toMatchObject({ requestId: 'Request:crashed' });
});

test('EMBEDDED_WALLET accounts show privateEnabled from the auth service', async () => {
  const c = await walletCustomer();
  h.walletAuth.privateEnabled.add(c.walletId);
  const { accounts } = await h.client.listInternalAccounts({ customerId: c.id, limit: 0 }, wallets);
  expect(new Map(accounts.map((a) => [a.type, a.privateEnabled]))).toEqual(
    new Map([['EMBEDDED_WALLET', true], ['INTERNAL_FIAT', undefined], ['INTERNAL_CRYPTO', undefined]]),
  );
  expect((await h.client.getInternalAccount({ id: c.walletId }, wallets)).account!.privateEnabled).toBe(true);
});
