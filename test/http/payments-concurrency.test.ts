import { startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, balanceOf, externalAccount, FAST_SETTLEMENT, fund, payingCustomer } from './payments-fixtures';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(async () => {
  await sys.stop();
});

test('30 concurrent executions of one quote: one 200, the rest 409, one debit', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 50_000);
  const payee = await externalAccount(sys, customerId, 'MXN_ACCOUNT');
  const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, payee, 10_000) });
  const results = await Promise.all(
    Array.from({ length: 30 }, () => sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })),
  );
  expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  expect(
    results.filter((r) => r.status === 409).every((r) =>
      r.body.code === 'CONFLICT' && r.body.details.reason === 'QUOTE_ALREADY_EXECUTED'
    ),
  ).toBe(true);
  expect(results.filter((r) => r.status === 409)).toHaveLength(29);
  expect(await balanceOf(sys, customerId, usdAccountId)).toBe(40_000);
  const listed = await sys.api(`/transactions?customerId=${customerId}`);
  expect(listed.body.data.filter((t: { quoteId?: string }) => t.quoteId === quote.body.id)).toHaveLength(1);
});

test('40 transfers racing on one balance: never overdrawn, the total exact', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 1_000);
  const bank = await externalAccount(sys, customerId, 'USD_ACCOUNT');
  const results = await Promise.all(
    Array.from({ length: 40 }, () =>
      sys.api('/transfer-out', {
        method: 'POST',
        json: { source: { accountId: usdAccountId }, destination: { accountId: bank }, amount: 30 },
      })),
  );
  const accepted = results.filter((r) => r.status === 201);
  expect(accepted).toHaveLength(33);
  expect(results.filter((r) => r.status === 400).every((r) => r.body.code === 'INSUFFICIENT_BALANCE')).toBe(true);
  expect(await balanceOf(sys, customerId, usdAccountId)).toBe(1_000 - 33 * 30);
});
