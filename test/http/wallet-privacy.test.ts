import { randomUUID } from 'node:crypto';
import { expectError, provisionWallet, signedRetry, signInWithOtp } from './wallet-client';
import { startWalletTestSystem, type WalletTestSystem } from './wallet-test-system';

let sys: WalletTestSystem;
beforeAll(async () => {
  sys = await startWalletTestSystem();
});
afterAll(async () => {
  await sys.stop();
});

/** A customer's internal account from the accounts service, with a wallet provisioned on it. */
async function customerWallet() {
  const email = `priv-${randomUUID().slice(0, 8)}@example.com`;
  const customer = await sys.api('/customers', {
    method: 'POST',
    json: {
      customerType: 'INDIVIDUAL',
      platformCustomerId: randomUUID(),
      email,
      fullName: 'Jane Doe',
      birthDate: '1990-01-15',
      nationality: 'US',
      currencies: ['USD'],
    },
  });
  if (customer.status !== 201) {
    throw new Error(`customer create answered ${customer.status} ${JSON.stringify(customer.body)}`);
  }
  const accounts = await sys.api(`/customers/internal-accounts?customerId=${customer.body.id}`);
  const accountId = accounts.body.data[0].id as string;
  return provisionWallet(sys, { accountId, email });
}

test('PATCH /internal-accounts/{id}: 202, then the signed retry answers the account with privateEnabled', async () => {
  const wallet = await customerWallet();
  const signer = await signInWithOtp(sys.api, wallet.emailCredentialId);
  const path = `/internal-accounts/${wallet.accountId}`;
  const { challenge, retry } = await signedRetry(
    sys.api,
    { method: 'PATCH', path, json: { privateEnabled: true } },
    signer.key,
  );
  expect(challenge.body).toEqual({
    payloadToSign: expect.any(String),
    requestId: expect.any(String),
    expiresAt: expect.any(String),
  });
  expect(retry.status).toBe(200);
  expect(retry.body).toMatchObject({ id: wallet.accountId, privateEnabled: true, balance: expect.any(Object) });
});

test('privacy: a body without privateEnabled is 400; an unknown account is 404', async () => {
  const wallet = await provisionWallet(sys);
  expectError(
    await sys.api(`/internal-accounts/${wallet.accountId}`, { method: 'PATCH', json: {} }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await sys.api(`/internal-accounts/InternalAccount:${randomUUID()}`, {
      method: 'PATCH',
      json: { privateEnabled: true },
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(
    await sys.api('/internal-accounts/not-an-id', { method: 'PATCH', json: { privateEnabled: true } }),
    400,
    'INVALID_INPUT',
  );
});
