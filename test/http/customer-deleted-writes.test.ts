import { externalAccountBody } from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';
import { policy } from './agent-fixtures';
import {
  accountQuote,
  balanceOf,
  expectError,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
} from './payments-fixtures';

/**
 * Once deleted, a customer takes no write: 410 CUSTOMER_DELETED, and no money lands on it, even racing the deletion.
 */

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(() => sys.stop());

const remove = (customerId: string) => sys.api(`/customers/${customerId}`, { method: 'DELETE' });

test('every write naming a deleted customer or its accounts is refused with 410 CUSTOMER_DELETED', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  const bank = await externalAccount(sys, customerId, 'USD_ACCOUNT');
  expect((await remove(customerId)).status).toBe(200);

  expectError(
    await sys.api(`/sandbox/internal-accounts/${usdAccountId}/fund`, { method: 'POST', json: { amount: 1_000 } }),
    410,
    'CUSTOMER_DELETED',
  );
  expectError(
    await sys.api(`/customers/${customerId}`, {
      method: 'PATCH',
      json: { customerType: 'INDIVIDUAL', fullName: 'Back Again' },
    }),
    410,
    'CUSTOMER_DELETED',
  );
  expectError(
    await sys.api('/customers/external-accounts', {
      method: 'POST',
      json: { ...externalAccountBody('MXN_ACCOUNT'), customerId },
    }),
    410,
    'CUSTOMER_DELETED',
  );
  expectError(
    await sys.api('/agents', { method: 'POST', json: { name: 'Late agent', customerId, policy: policy() } }),
    410,
    'CUSTOMER_DELETED',
  );
  expectError(
    await sys.api('/transfer-out', {
      method: 'POST',
      json: { source: { accountId: usdAccountId }, destination: { accountId: bank }, amount: 100 },
    }),
    410,
    'CUSTOMER_DELETED',
  );
  expectError(
    await sys.api('/transfer-in', {
      method: 'POST',
      json: { source: { accountId: bank }, destination: { accountId: usdAccountId }, amount: 100 },
    }),
    410,
    'CUSTOMER_DELETED',
  );
  // Incoming UMA payments name it no more; quotes from its account neither.
  expectError(
    await sys.api('/sandbox/uma/receive', {
      method: 'POST',
      json: {
        senderUmaAddress: '$someone@uma.example.com',
        customerId,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 500,
      },
    }),
    404,
    'USER_NOT_FOUND',
  );
  expectError(
    await sys.api('/quotes', { method: 'POST', json: accountQuote(usdAccountId, bank, 100) }),
    404,
    'USER_NOT_FOUND',
  );
  expect(await balanceOf(sys, customerId, usdAccountId)).toBe(0);
  expect((await sys.api(`/customers/${customerId}`)).body).toMatchObject({
    isDeleted: true,
    fullName: expect.not.stringMatching('Back Again'),
  });
});

test("a payment to a deleted customer's account fails (ACCOUNT_CANNOT_RECEIVE); the sender is refunded", async () => {
  const sender = await payingCustomer(sys);
  const receiver = await payingCustomer(sys);
  await fund(sys, sender.usdAccountId, 5_000);
  const quote = await sys.api('/quotes', {
    method: 'POST',
    json: accountQuote(sender.usdAccountId, receiver.usdAccountId, 2_000),
  });
  expect(quote.status).toBe(201);
  expect((await remove(receiver.customerId)).status).toBe(200);
  expect((await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
  const failed = await transactionWhen(
    sys,
    quote.body.transactionId,
    (t) => t.status === 'FAILED' && t.refund?.status === 'COMPLETED',
  );
  expect(failed.failureReason).toBe('ACCOUNT_CANNOT_RECEIVE');
  expect(await balanceOf(sys, sender.customerId, sender.usdAccountId)).toBe(5_000);
  expect(await balanceOf(sys, receiver.customerId, receiver.usdAccountId)).toBe(0);
});

test('DELETE racing 10 fundings, 6 times: either deleted with nothing on it, or kept with all funds in', async () => {
  const outcomes: string[] = [];
  for (let round = 0; round < 6; round++) {
    const { customerId, usdAccountId } = await payingCustomer(sys);
    // The deletion goes out among the fundings, at a different place each round: before them, or after.
    const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const [deletionDelay, fundingDelay] = round % 2 ? [round, 0] : [0, round * 5];
    const fundings = Array.from(
      { length: 10 },
      (_, i) =>
        later(fundingDelay + i).then(() =>
          sys.api(`/sandbox/internal-accounts/${usdAccountId}/fund`, { method: 'POST', json: { amount: 777 } })
        ),
    );
    const [deletion, ...funded] = await Promise.all([later(deletionDelay).then(() => remove(customerId)), ...fundings]);
    const deleted = (await sys.api(`/customers/${customerId}`)).body.isDeleted;
    const balance = await balanceOf(sys, customerId, usdAccountId);
    const statuses = funded.map((f) => f.status);
    if (deleted) {
      expect(deletion.status).toBe(200);
      expect(balance).toBe(0);
      // Those the closing refused answer 410; none landed.
      expect(statuses.every((s) => s === 410)).toBe(true);
    } else {
      expectError(deletion, 409, 'CONFLICT');
      expect(balance).toBe(7_770);
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    outcomes.push(deleted ? 'deleted' : 'kept');
  }
  expect(outcomes).toHaveLength(6);
});
