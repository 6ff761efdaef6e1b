import { startTestSystem, type TestSystem } from '../system-harness';
import {
  accountQuote,
  expectError,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
} from './payments-fixtures';
import { signInWithOtp, stamp } from './wallet-client';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
  const configured = await sys.api('/config', {
    method: 'PATCH',
    json: { embeddedWalletConfig: { appName: 'Payments test' } },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await sys.stop();
});

test("a payment from an embedded wallet, authorized by a session stamp over the quote's payloadToSign", async () => {
  const { customerId } = await payingCustomer(sys);
  const accounts = await sys.api(`/customers/internal-accounts?customerId=${customerId}&type=EMBEDDED_WALLET`);
  const walletId: string = accounts.body.data[0].id;
  await fund(sys, walletId, 100_000);
  const credentials = await sys.api(`/auth/credentials?accountId=${walletId}`);
  const emailCredential = credentials.body.data.find((c: { type: string }) => c.type === 'EMAIL_OTP');
  const { key } = await signInWithOtp(sys.api, emailCredential.id);

  const payee = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
  expectError(
    await sys.api('/quotes', {
      method: 'POST',
      json: accountQuote(walletId, payee, 10_000, { immediatelyExecute: true }),
    }),
    400,
    'INVALID_INPUT',
  );
  const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(walletId, payee, 10_000) });
  expect(quote.status).toBe(201);
  const info = quote.body.paymentInstructions[0].accountOrWalletInfo;
  expect(info).toEqual({ accountType: 'EMBEDDED_WALLET', payloadToSign: expect.any(String) });

  const execute = (headers: Record<string, string> = {}) =>
    sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST', headers });
  expectError(await execute(), 401, 'WALLET_SIGNATURE_MISSING');
  expectError(await execute({ 'Service-Wallet-Signature': 'not-a-stamp' }), 401, 'WALLET_SIGNATURE_MALFORMED');
  const signature = await stamp(key, info.payloadToSign);
  const executed = await execute({ 'Service-Wallet-Signature': signature });
  expect(executed.status).toBe(200);
  expect(executed.body.status).toBe('PROCESSING');
  // The identical signed retry answers the same execution.
  const repeated = await execute({ 'Service-Wallet-Signature': signature });
  expect(repeated.status).toBe(200);
  expect(repeated.body.transactionId).toBe(quote.body.transactionId);

  await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');
  const wallet = await sys.api(`/customers/internal-accounts?customerId=${customerId}&type=EMBEDDED_WALLET`);
  expect(wallet.body.data[0].balance.amount).toBe(90_000);
});

test("the reference's header name, Grid-Wallet-Signature, carries the same stamp; two stamps are refused", async () => {
  const { customerId } = await payingCustomer(sys);
  const accounts = await sys.api(`/customers/internal-accounts?customerId=${customerId}&type=EMBEDDED_WALLET`);
  const walletId: string = accounts.body.data[0].id;
  await fund(sys, walletId, 50_000);
  const credentials = await sys.api(`/auth/credentials?accountId=${walletId}`);
  const { key } = await signInWithOtp(
    sys.api,
    credentials.body.data.find((c: { type: string }) => c.type === 'EMAIL_OTP').id,
  );
  const quote = await sys.api('/quotes', {
    method: 'POST',
    json: accountQuote(walletId, await externalAccount(sys, customerId, 'MXN_ACCOUNT'), 10_000),
  });
  const execute = (headers: Record<string, string>) =>
    sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST', headers });
  const signature = await stamp(key, quote.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign);

  expectError(await execute({ 'Grid-Wallet-Signature': 'not-a-stamp' }), 401, 'WALLET_SIGNATURE_MALFORMED');
  expectError(
    await execute({ 'Grid-Wallet-Signature': signature, 'Service-Wallet-Signature': 'another' }),
    401,
    'WALLET_SIGNATURE_MALFORMED',
  );
  expect((await sys.api(`/quotes/${quote.body.id}`)).body.status).toBe('PENDING');
  const executed = await execute({ 'Grid-Wallet-Signature': signature });
  expect(executed.status).toBe(200);
  expect(executed.body.status).toBe('PROCESSING');
  // Both names with the same stamp are one stamp.
  expect(
    (await execute({ 'Grid-Wallet-Signature': signature, 'Service-Wallet-Signature': signature })).body.transactionId,
  ).toBe(quote.body.transactionId);
  await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');
});
