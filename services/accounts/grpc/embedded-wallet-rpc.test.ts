import { configChangesOf, customerFieldsOf } from '../test-fixtures/request-bodies';
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

const walletsOf = async (customerId: string, platform: { platformId: string }) =>
  (await h.client.listInternalAccounts({ customerId, type: 'EMBEDDED_WALLET', limit: 0 }, platform)).accounts;

describe('EMBEDDED_WALLET internal accounts', () => {
  test('a customer with an email, on a platform with embedded wallets, gets one from the auth service', async () => {
    const { customer } = await h.client.createCustomer({
      customer: customerFieldsOf({
        customerType: 'INDIVIDUAL',
        currencies: ['USD'],
        email: 'ana@example.com',
        phoneNumber: '+14155551234',
      }),
    }, wallets);
    const id = internalAccountId(customer!.id, 'USDC', 'EMBEDDED_WALLET');
    expect(await walletsOf(customer!.id, wallets)).toEqual([{
      id,
      customerId: customer!.id,
      type: 'EMBEDDED_WALLET',
      status: 'ACTIVE',
      fundingPaymentInstructions: [],
      privateEnabled: false,
      balance: { amount: 0, currency: { code: 'USDC', name: 'USD Coin', symbol: '', decimals: 6 } },
      totalBalance: { amount: 0, currency: { code: 'USDC', name: 'USD Coin', symbol: '', decimals: 6 } },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    }]);
    expect(h.walletAuth.calls.filter((c) => c.accountId === id)).toEqual([
      {
        accountId: id,
        platformId: wallets.platformId,
        customerEmail: 'ana@example.com',
        customerPhone: '+14155551234',
      },
    ]);
    const doc = await h.store.collection('internal_accounts').findOne({ _id: id });
    expect((doc?._outbox as Array<{ type: string; data: unknown }>).map((e) => [e.type, e.data])).toEqual([
      ['INTERNAL_ACCOUNT.CREATED', {
        accountId: id,
        customerId: customer!.id,
        type: 'EMBEDDED_WALLET',
        currency: 'USDC',
      }],
      ['INTERNAL_ACCOUNT.STATUS_UPDATED', {
        accountId: id,
        customerId: customer!.id,
        type: 'EMBEDDED_WALLET',
        previousStatus: 'PENDING',
        status: 'ACTIVE',
      }],
    ]);
  });

  test('none without an email; one once an update adds the email', async () => {
    const { customer } = await h.client.createCustomer(
      { customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) },
      wallets,
    );
    expect(await walletsOf(customer!.id, wallets)).toEqual([]);
    await h.client.updateCustomer({
      id: customer!.id,
      changes: customerFieldsOf({ customerType: 'INDIVIDUAL', email: 'late@example.com' }),
    }, wallets);
    expect((await walletsOf(customer!.id, wallets)).map((a) => a.status)).toEqual(['ACTIVE']);
    expect(h.walletAuth.calls.at(-1)).toMatchObject({ customerEmail: 'late@example.com' });
  });

  test('none on a platform without embedded-wallet support', async () => {
    const plain = await h.newPlatform();
    const { customer } = await h.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL', email: 'no-wallet@example.com' }),
    }, plain);
    expect(await walletsOf(customer!.id, plain)).toEqual([]);
  });

  test('the auth service down: the customer is created, its wallet PENDING until the repair worker runs', async () => {
    h.walletAuth.failing = true;
    const { customer } = await h.client.createCustomer({
      customer: customerFieldsOf({
        customerType: 'BUSINESS',
        email: 'ops@acme.com',
        businessInfo: { legalName: 'Acme', country: 'US', taxId: '1', incorporatedOn: '2020-01-01' },
      }),
    }, wallets);
    expect((await walletsOf(customer!.id, wallets)).map((a) => a.status)).toEqual(['PENDING']);
    h.walletAuth.failing = false;
    await h.repair.sweep({ graceMs: 0 });
    expect((await walletsOf(customer!.id, wallets)).map((a) => a.status)).toEqual(['ACTIVE']);
  });
});
