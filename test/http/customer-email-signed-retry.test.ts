import { startTestSystem, type TestSystem } from '../system-harness';
import { emailCredentialOf, newEmail, walletCustomer, type WalletCustomer } from './customer-wallet-fixtures';
import { expectError, newKeyPair, signedHeaders, signInWithOtp, stamp, type KeyPair } from './wallet-client';

const CHALLENGE_TTL_MS = 3000;
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({
    env: { SIGNED_RETRY_TTL_MS: String(CHALLENGE_TTL_MS), WALLET_OTP_REISSUE_INTERVAL_MS: '0' },
  });
  const configured = await sys.api('/config', {
    method: 'PATCH',
    json: { embeddedWalletConfig: { appName: 'Email change test' } },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await sys.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const patch = (c: WalletCustomer, json: unknown, headers: Record<string, string> = {}) =>
  sys.api(`/customers/${c.customerId}`, { method: 'PATCH', json, headers });

/** A wallet customer signed in with the sandbox email code. */
async function signedInCustomer(): Promise<WalletCustomer & { key: KeyPair }> {
  const customer = await walletCustomer(sys);
  const { key } = await signInWithOtp(sys.api, customer.emailCredentialId);
  return { ...customer, key };
}

/** The 202 of the first call and the headers of its signed retry. */
async function challenged(c: WalletCustomer & { key: KeyPair }, json: unknown) {
  const first = await patch(c, json);
  expect(first.status).toBe(202);
  return {
    challenge: first.body,
    headers: signedHeaders(await stamp(c.key, first.body.payloadToSign), first.body.requestId),
  };
}

async function expectEmails(c: WalletCustomer, email: string) {
  expect((await sys.api(`/customers/${c.customerId}`)).body.email).toBe(email);
  expect((await emailCredentialOf(sys, c.walletId))!.nickname).toBe(email);
}

test(
  'accounts-driven provisioning: a customer with an email '
    + 'gets an ACTIVE EMBEDDED_WALLET with its EMAIL_OTP credential',
  async () => {
    const c = await walletCustomer(sys);
    const wallet = await sys.api(`/customers/internal-accounts?customerId=${c.customerId}&type=EMBEDDED_WALLET`);
    expect(wallet.body.data).toEqual([
      expect.objectContaining({
        id: c.walletId,
        customerId: c.customerId,
        type: 'EMBEDDED_WALLET',
        status: 'ACTIVE',
        privateEnabled: false,
      }),
    ]);
    expect((await sys.api(`/auth/credentials?accountId=${c.walletId}`)).body.data).toEqual([
      expect.objectContaining({ id: c.emailCredentialId, accountId: c.walletId, type: 'EMAIL_OTP', nickname: c.email }),
    ]);
  },
);

describe('PATCH /customers/{id} changing an email tied to EMAIL_OTP credentials', () => {
  test('202 challenge, then the signed retry: 200 with the new email, now on the EMAIL_OTP credential', async () => {
    const c = await signedInCustomer();
    const json = { customerType: 'INDIVIDUAL', email: newEmail('moved') };
    const { challenge, headers } = await challenged(c, json);
    expect(challenge).toEqual({
      type: 'EMAIL_OTP',
      payloadToSign: expect.stringContaining(json.email),
      requestId: expect.stringMatching(/^Request:/),
      expiresAt: expect.any(String),
    });
    await expectEmails(c, c.email);

    const retry = await patch(c, json, headers);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ id: c.customerId, email: json.email, fullName: 'Ana Lima' });
    await expectEmails(c, json.email);
    // The identical signed retry answers the same customer; the new email signs in.
    expect((await patch(c, json, headers)).body).toEqual(retry.body);
    await expect(signInWithOtp(sys.api, c.emailCredentialId)).resolves.toMatchObject({
      session: { nickname: json.email },
    });
  });

  test("the credentials can't take the email: 424 EMAIL_OTP_CREDENTIAL_SYNC_FAILED; both keep the old", async () => {
    const c = await signedInCustomer();
    // The embedded wallet provider refuses addresses of this domain (the documented sandbox trigger).
    const json = { customerType: 'INDIVIDUAL', email: 'rejected@sync-fail.invalid' };
    const { headers } = await challenged(c, json);
    expectError(await patch(c, json, headers), 424, 'EMAIL_OTP_CREDENTIAL_SYNC_FAILED');
    await expectEmails(c, c.email);
    expectError(await patch(c, json, headers), 424, 'EMAIL_OTP_CREDENTIAL_SYNC_FAILED');
  });

  test('the customer write fails after the credentials changed (UMA address taken): 409; both unchanged', async () => {
    const other = await walletCustomer(sys);
    const taken = (await sys.api(`/customers/${other.customerId}`)).body.umaAddress;
    const c = await signedInCustomer();
    const json = { customerType: 'INDIVIDUAL', email: newEmail('clash'), umaAddress: taken };
    const { headers } = await challenged(c, json);
    expectError(await patch(c, json, headers), 409, 'CONFLICT');
    await expectEmails(c, c.email);
  });

  describe("the signed retry's errors", () => {
    let c: WalletCustomer & { key: KeyPair };
    beforeAll(async () => {
      c = await signedInCustomer();
    });
    const json = () => ({ customerType: 'INDIVIDUAL', email: newEmail('err') });

    test('a different body: 401 WALLET_SIGNATURE_BODY_MISMATCH', async () => {
      const { headers } = await challenged(c, json());
      expectError(await patch(c, json(), headers), 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
      await expectEmails(c, c.email);
    });

    test(
      'headers missing: WALLET_SIGNATURE_MISSING / REQUEST_ID_MISSING; '
        + 'a malformed stamp: WALLET_SIGNATURE_MALFORMED',
      async () => {
        const body = json();
        const { headers } = await challenged(c, body);
        expectError(await patch(c, body, { 'Request-Id': headers['Request-Id'] }), 401, 'WALLET_SIGNATURE_MISSING');
        expectError(
          await patch(c, body, { 'Service-Wallet-Signature': headers['Service-Wallet-Signature'] }),
          401,
          'REQUEST_ID_MISSING',
        );
        expectError(
          await patch(c, body, signedHeaders('%%%not-a-stamp%%%', headers['Request-Id'])),
          401,
          'WALLET_SIGNATURE_MALFORMED',
        );
      },
    );

    test("a key that is no session, or another customer's wallet's session: 401 WALLET_SIGNATURE_INVALID", async () => {
      const body = json();
      const { challenge } = await challenged(c, body);
      const stranger = await signedInCustomer();
      for (const key of [newKeyPair(), stranger.key]) {
        expectError(
          await patch(c, body, signedHeaders(await stamp(key, challenge.payloadToSign), challenge.requestId)),
          401,
          'WALLET_SIGNATURE_INVALID',
        );
      }
      await expectEmails(c, c.email);
    });

    test('a used Request-Id with another stamp or body: 401 REQUEST_ID_ALREADY_USED', async () => {
      const target = await signedInCustomer();
      const body = json();
      const { challenge, headers } = await challenged(target, body);
      expect((await patch(target, body, headers)).status).toBe(200);
      const restamped = signedHeaders(await stamp(target.key, challenge.payloadToSign), challenge.requestId);
      expectError(await patch(target, body, restamped), 401, 'REQUEST_ID_ALREADY_USED');
      expectError(await patch(target, json(), restamped), 401, 'REQUEST_ID_ALREADY_USED');
    });

    test('a retry after expiresAt: 401 SIGNED_RETRY_EXPIRED; a fresh challenge works', async () => {
      const body = json();
      const { challenge, headers } = await challenged(c, body);
      await sleep(Date.parse(challenge.expiresAt) - Date.now() + 50);
      expectError(await patch(c, body, headers), 401, 'SIGNED_RETRY_EXPIRED');
      await expectEmails(c, c.email);
      const fresh = await challenged(c, body);
      expect((await patch(c, body, fresh.headers)).status).toBe(200);
      await expectEmails(c, body.email);
    }, CHALLENGE_TTL_MS + 15_000);
  });
});

test("the signed retry under the reference's header name, Grid-Wallet-Signature, is the same retry", async () => {
  const c = await signedInCustomer();
  const json = { customerType: 'INDIVIDUAL', email: newEmail('grid-header') };
  const { headers } = await challenged(c, json);
  const gridHeaders = {
    'Grid-Wallet-Signature': headers['Service-Wallet-Signature'],
    'Request-Id': headers['Request-Id'],
  };
  expectError(
    await patch(c, json, { ...gridHeaders, 'Service-Wallet-Signature': 'another' }),
    401,
    'WALLET_SIGNATURE_MALFORMED',
  );
  const retry = await patch(c, json, gridHeaders);
  expect(retry.status).toBe(200);
  expect(retry.body.email).toBe(json.email);
  await expectEmails(c, json.email);
});

describe('updates that need no signature', () => {
  test('a customer whose email is tied to no credential (platform without embedded wallets): 200 at once', async () => {
    const other = await sys.createPlatform();
    const created = await sys.api('/customers', {
      method: 'POST',
      json: { customerType: 'INDIVIDUAL', email: newEmail('plain') },
      auth: other.auth,
    });
    const email = newEmail('plain2');
    const updated = await sys.api(`/customers/${created.body.id}`, {
      method: 'PATCH',
      json: { customerType: 'INDIVIDUAL', email },
      auth: other.auth,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.email).toBe(email);
  });

  test('other members of a tied customer, or its unchanged email: 200 at once', async () => {
    const c = await walletCustomer(sys);
    const res = await patch(c, { customerType: 'INDIVIDUAL', fullName: 'Ana Souza', email: c.email });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fullName: 'Ana Souza', email: c.email });
  });
});
