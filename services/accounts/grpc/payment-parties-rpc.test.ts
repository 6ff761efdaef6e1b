import { GetPaymentPartiesRequest } from '../../../gen/accounts/v1/payment_party_requests';
import { startAccountsService, type AccountsHarness } from '../test-fixtures/accounts-service-harness';
import { customerFieldsOf, externalAccountBody, externalAccountRequest } from '../test-fixtures/request-bodies';

const ask = (fields: Partial<GetPaymentPartiesRequest>) => GetPaymentPartiesRequest.fromPartial(fields);

describe('GetPaymentParties: what a payment reads, in one call', () => {
  let h: AccountsHarness;
  beforeAll(async () => {
    h = await startAccountsService({ ACCOUNTS_PLATFORM_CURRENCIES: 'USD,MXN' });
  });
  afterAll(async () => {
    await h.stop();
  });

  async function setUp() {
    const p = await h.newPlatform();
    const { customer } = await h.client.createCustomer(
      { customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) },
      p,
    );
    const { accounts } = await h.client.listInternalAccounts({ customerId: customer!.id, limit: 0 }, p);
    const { account: external } = await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('USD_ACCOUNT', { customerId: customer!.id })),
      p,
    );
    return { p, customer: customer!, internal: accounts, external: external! };
  }

  test('each record as its own RPC answers it; internal accounts without the ledger', async () => {
    const { p, customer, internal, external } = await setUp();
    const usd = internal.find((a) => a.balance!.currency!.code === 'USD')!;
    h.ledger.calls.length = 0;

    const found = await h.client.getPaymentParties(
      ask({
        internalAccountIds: [usd.id],
        externalAccountIds: [external.id],
        includeOwners: true,
        includePlatformConfig: true,
      }),
      p,
    );

    expect(found.customers).toEqual([(await h.client.getCustomer({ id: customer.id }, p)).customer]);
    expect(found.externalAccounts).toEqual([(await h.client.getExternalAccount({ id: external.id }, p)).account]);
    expect(found.internalAccounts).toEqual([{
      id: usd.id,
      customerId: customer.id,
      type: usd.type,
      status: usd.status,
      currency: 'USD',
    }]);
    expect(found.platformConfig).toEqual((await h.client.getPlatformConfig({}, p)).config);
    expect(h.ledger.calls).toEqual([]);
  });

  test('holdings: none for a customer that declares its currencies', async () => {
    const { p, customer } = await setUp();
    expect(customer.currencies.length).toBeGreaterThan(0);
    const found = await h.client.getPaymentParties(
      ask({ customerIds: [customer.id], holdingsOfCustomerIds: [customer.id] }),
      p,
    );
    expect(found.customers.map((c) => c.id)).toEqual([customer.id]);
    expect(found.internalAccounts).toEqual([]);
  });

  test('holdings of a customer with no currencies (old record): accounts in ListInternalAccounts order', async () => {
    const { p, customer } = await setUp();
    await h.store.collection('customers').updateOne({ _id: customer.id }, { $set: { currencies: [] } });
    const found = await h.client.getPaymentParties(
      ask({ customerIds: [customer.id], holdingsOfCustomerIds: [customer.id] }),
      p,
    );
    const listed = await h.client.listInternalAccounts({ customerId: customer.id, limit: 50 }, p);
    expect(found.customers.map((c) => c.id)).toEqual([customer.id]);
    expect(found.internalAccounts.map((a) => [a.id, a.currency])).toEqual(
      listed.accounts.map((a) => [a.id, a.balance!.currency!.code]),
    );
    expect(found.externalAccounts).toEqual([]);
    expect(found.platformConfig).toBeUndefined();
  });

  test("absent records and another platform's are left out, as their own RPCs answer NOT_FOUND", async () => {
    const { customer, internal, external } = await setUp();
    const other = await h.newPlatform();
    const found = await h.client.getPaymentParties(
      ask({
        customerIds: [customer.id, 'Customer:00000000-0000-4000-8000-000000000000'],
        internalAccountIds: [internal[0].id],
        externalAccountIds: [external.id],
        includeOwners: true,
        holdingsOfCustomerIds: [customer.id],
      }),
      other,
    );
    expect([found.customers, found.internalAccounts, found.externalAccounts]).toEqual([[], [], []]);
  });

  test('owners come only when asked for', async () => {
    const { p, external } = await setUp();
    const found = await h.client.getPaymentParties(ask({ externalAccountIds: [external.id] }), p);
    expect(found.externalAccounts.map((a) => a.id)).toEqual([external.id]);
    expect(found.customers).toEqual([]);
  });
});
