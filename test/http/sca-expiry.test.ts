import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';
import {
  accountQuote,
  balanceOf,
  expectError,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  transactionWhen,
} from './payments-fixtures';

let sys: TestSystem;
// 12 s: long enough for create and execute to land before expiry on a loaded machine (3 s was not).
beforeAll(async () => {
  sys = await startTestSystem({ env: { ...FAST_SETTLEMENT, QUOTE_VALIDITY_SECONDS: '12' } });
}, 120_000);
afterAll(async () => {
  await sys.stop();
});

async function euPayer() {
  const terms = await sys.api('/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const created = await sys.api('/customers', {
    method: 'POST',
    json: {
      ...INDIVIDUAL_CUSTOMER,
      region: 'FR',
      nationality: 'FR',
      phoneNumber: '+33612345678',
      email: 'expiry@example.com',
      platformCustomerId: `sca-expiry-${process.pid}`,
      endUserTermsConsent: consent,
    },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  expect((await sys.api(`/customers/${id}/verify-phone`, { method: 'POST' })).status).toBe(204);
  expect((await sys.api(`/customers/${id}/verify-phone/confirm`, { method: 'POST', json: { code: '123456' } })).status)
    .toBe(200);
  const accounts = await sys.api(`/customers/internal-accounts?customerId=${id}&type=INTERNAL_FIAT&currency=USD`);
  const usd = accounts.body.data[0].id as string;
  await fund(sys, usd, 100_000);
  return { id, usd, payee: await externalAccount(sys, id) };
}

test(
  'a quote left PENDING_AUTHORIZATION past its expiry fails with '
    + 'SCA_NOT_COMPLETED, moves no money and cannot be authorized',
  async () => {
    const eu = await euPayer();
    const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(eu.usd, eu.payee, 1_000) });
    expect(quote.status).toBe(201);
    const held = await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' });
    expect(held.status).toBe(200);
    expect(held.body.status).toBe('PENDING_AUTHORIZATION');

    const failed = await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'FAILED', 90_000);
    expect(failed.failureReason).toBe('SCA_NOT_COMPLETED');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(quote.body.expiresAt));
    expect(await balanceOf(sys, eu.id, eu.usd)).toBe(100_000);
    // Even with a live SCA session, the expired challenge authorizes nothing.
    const start = await sys.api(`/sca/login/start?customerId=${eu.id}`, {
      method: 'POST',
      json: { factor: 'SMS_OTP' },
    });
    const login = await sys.api(`/sca/login/complete?customerId=${eu.id}`, {
      method: 'POST',
      json: { factor: 'SMS_OTP', endUserIpAddress: '203.0.113.4', challengeId: start.body.challengeId, code: '123456' },
    });
    expect(login.status).toBe(200);
    expectError(
      await sys.api(`/quotes/${quote.body.id}/authorize`, { method: 'POST', json: { code: '123456' } }),
      409,
      'CONFLICT',
    );
    expect((await sys.api(`/transactions/${quote.body.transactionId}`)).body.status).toBe('FAILED');
  },
);
