import { startTestSystem, type TestSystem } from '../system-harness';
import { createCustomer } from './kyc-fixtures';
import { expectError, fund, payingCustomer } from './payments-fixtures';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem();
});
afterAll(() => sys.stop());

test('a customer without funds is deleted: 200 with isDeleted, gone from the default list, 410 next time', async () => {
  const customer = await createCustomer(sys, { fullName: 'Leaving Soon' });
  const res = await sys.api(`/customers/${customer.id}`, { method: 'DELETE' });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ id: customer.id, isDeleted: true });
  expectError(await sys.api(`/customers/${customer.id}`, { method: 'DELETE' }), 410, 'CUSTOMER_DELETED');
  const listed = await sys.api(`/customers?platformCustomerId=${customer.platformCustomerId}`);
  expect(listed.body.data).toEqual([]);
  const withDeleted = await sys.api(
    `/customers?platformCustomerId=${customer.platformCustomerId}&isIncludingDeleted=true`,
  );
  expect(withDeleted.body.data.map((c: any) => c.id)).toEqual([customer.id]);
  // Its platformCustomerId is free again.
  expect(
    (await sys.api('/customers', {
      method: 'POST',
      json: { customerType: 'INDIVIDUAL', platformCustomerId: customer.platformCustomerId },
    })).status,
  ).toBe(201);
  // A deleted customer cannot start KYC.
  expectError(
    await sys.api('/verifications', { method: 'POST', json: { customerId: customer.id } }),
    404,
    'USER_NOT_FOUND',
  );
});

test('a customer holding funds cannot vanish: 409 naming the accounts, and it stays as it was', async () => {
  const { customerId, usdAccountId } = await payingCustomer(sys);
  await fund(sys, usdAccountId, 12_345);
  const res = await sys.api(`/customers/${customerId}`, { method: 'DELETE' });
  expectError(res, 409, 'CONFLICT');
  expect(res.body.details.accounts).toEqual([{ id: usdAccountId, currency: 'USD', totalBalance: 12_345 }]);
  expect((await sys.api(`/customers/${customerId}`)).body.isDeleted).toBe(false);
  expectError(
    await sys.api('/customers/Customer:00000000-0000-4000-8000-000000000000', { method: 'DELETE' }),
    404,
    'USER_NOT_FOUND',
  );
});
