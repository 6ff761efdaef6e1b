import { newId } from '../../../lib/ids';
import { startAccountsService, type AccountsHarness } from '../test-fixtures/accounts-service-harness';
import { customerFieldsOf, externalAccountBody, externalAccountRequest } from '../test-fixtures/request-bodies';

let h: AccountsHarness;
let platformA: { platformId: string };
let platformB: { platformId: string };
let customerId: string;

beforeAll(async () => {
  h = await startAccountsService({ ACCOUNTS_PLATFORM_CURRENCIES: 'USD,BTC' });
  platformA = await h.newPlatform();
  platformB = await h.newPlatform();
  customerId =
    (await h.client.createCustomer({ customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) }, platformA)).customer!
      .id;
});
afterAll(() => h.stop());

describe('platform', () => {
  test('EnsurePlatform is idempotent and opens one platform internal account per currency', async () => {
    const platformId = newId('Platform');
    const first = await h.client.ensurePlatform({ platformId, name: 'P' });
    const again = await h.client.ensurePlatform({ platformId, name: 'Renamed' });
    expect([first.created, again.created, again.platform?.name]).toEqual([true, false, 'P']);
    expect(first.platform).toMatchObject({ id: platformId, supportedCurrencies: ['USD', 'BTC'] });
    const { accounts } = await h.client.listPlatformInternalAccounts({}, { platformId });
    const byCode = [...accounts].sort((a, b) => a.balance!.currency!.code.localeCompare(b.balance!.currency!.code));
    expect(byCode.map((a) => ({ type: a.type, customerId: a.customerId, balance: a.balance, status: a.status })))
      .toEqual([
        {
          type: 'INTERNAL_CRYPTO',
          customerId: undefined,
          status: 'ACTIVE',
          balance: { amount: 0, currency: { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 } },
        },
        {
          type: 'INTERNAL_FIAT',
          customerId: undefined,
          status: 'ACTIVE',
          balance: { amount: 0, currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 } },
        },
      ]);
    await expect(h.client.getPlatform({}, { platformId })).resolves.toMatchObject({ platform: { id: platformId } });
  });

  test('EnsurePlatform refuses a malformed platform id', async () => {
    await expect(h.client.ensurePlatform({ platformId: 'acme', name: 'P' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('internal accounts', () => {
  test('filters by currency and type; platform accounts are not customer accounts', async () => {
    const all = await h.client.listInternalAccounts({ limit: 0 }, platformA);
    expect(all.accounts.every((a) => a.customerId === customerId)).toBe(true);
    const btc = await h.client.listInternalAccounts({ limit: 0, currency: 'BTC' }, platformA);
    expect(btc.accounts.map((a) => a.type)).toEqual(['INTERNAL_CRYPTO']);
    const fiat = await h.client.listPlatformInternalAccounts({ type: 'INTERNAL_FIAT' }, platformA);
    expect(fiat.accounts.map((a) => a.balance?.currency?.code)).toEqual(['USD']);
  });

  test('are invisible to other platforms', async () => {
    const [account] = (await h.client.listInternalAccounts({ limit: 1, customerId }, platformA)).accounts;
    await expect(h.client.getInternalAccount({ id: account.id }, platformA)).resolves.toMatchObject({
      account: { id: account.id },
    });
    await expect(h.client.getInternalAccount({ id: account.id }, platformB)).rejects.toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
    });
    expect((await h.client.listInternalAccounts({ limit: 0, customerId }, platformB)).accounts).toEqual([]);
  });

  // The filters' shape is the gateway's contract (test/http/customers.test.ts): here they only select.
  test('filters that name nothing select nothing', async () => {
    const page = await h.client.listInternalAccounts({ limit: 0, customerId: 'bob', type: 'SAVINGS' }, platformA);
    expect(page.accounts).toEqual([]);
  });
});

describe('external accounts', () => {
  test('create, get, list and delete a customer bank account', async () => {
    const { account } = await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('USD_ACCOUNT', { customerId, platformAccountId: 'ext-1' })),
      platformA,
    );
    expect(account).toMatchObject({
      customerId,
      status: 'ACTIVE',
      currency: 'USD',
      platformAccountId: 'ext-1',
      defaultUmaDepositAccount: false,
      accountInfo: { accountType: 'USD_ACCOUNT', routingNumber: '021000021' },
    });
    await expect(h.client.getExternalAccount({ id: account!.id }, platformA)).resolves.toEqual({ account });
    const listed = await h.client.listExternalAccounts({ limit: 0, customerId }, platformA);
    expect(listed.accounts.map((a) => a.id)).toContain(account!.id);
    expect((await h.client.listPlatformExternalAccounts({ limit: 0 }, platformA)).accounts.map((a) => a.id)).not
      .toContain(account!.id);

    await expect(h.client.deleteExternalAccount({ id: account!.id, owner: 'PLATFORM' }, platformA)).rejects
      .toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
    await h.client.deleteExternalAccount({ id: account!.id, owner: 'CUSTOMER' }, platformA);
    await expect(h.client.getExternalAccount({ id: account!.id }, platformA)).rejects.toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
    });
    await expect(h.client.deleteExternalAccount({ id: account!.id, owner: '' }, platformA)).rejects.toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
    });
    const doc = await h.store.collection('external_accounts').findOne({ _id: account!.id });
    expect((doc?._outbox as Array<{ type: string }>).map((e) => e.type)).toEqual([
      'EXTERNAL_ACCOUNT.CREATED',
      'EXTERNAL_ACCOUNT.DELETED',
    ]);
    // Deleted: the same destination may be added again.
    await expect(
      h.client.createExternalAccount(
        externalAccountRequest(externalAccountBody('USD_ACCOUNT', { customerId })),
        platformA,
      ),
    ).resolves.toBeDefined();
  });

  test('the same destination twice for one owner is a CONFLICT', async () => {
    await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('MXN_ACCOUNT', { customerId })),
      platformA,
    );
    await expect(
      h.client.createExternalAccount(
        externalAccountRequest(externalAccountBody('MXN_ACCOUNT', { customerId })),
        platformA,
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      h.client.createPlatformExternalAccount(externalAccountRequest(externalAccountBody('MXN_ACCOUNT')), platformA),
    ).resolves.toBeDefined();
  });

  test('platform accounts: no customerId, listed on the platform only', async () => {
    const { account } = await h.client.createPlatformExternalAccount(
      externalAccountRequest(externalAccountBody('EUR_ACCOUNT')),
      platformA,
    );
    expect(account!.customerId).toBeUndefined();
    const page = await h.client.listPlatformExternalAccounts({ limit: 0, currency: 'EUR' }, platformA);
    expect(page.accounts.map((a) => a.id)).toEqual([account!.id]);
    expect((await h.client.listExternalAccounts({ limit: 0 }, platformA)).accounts.map((a) => a.id)).not.toContain(
      account!.id,
    );
  });

  test('a customer of another platform is USER_NOT_FOUND; another platform’s account is NOT_FOUND', async () => {
    await expect(
      h.client.createExternalAccount(
        externalAccountRequest(externalAccountBody('EUR_ACCOUNT', { customerId })),
        platformB,
      ),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    const { account } = await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('BRL_ACCOUNT', { customerId })),
      platformA,
    );
    const foreign = await h.client.getExternalAccount({ id: account!.id }, platformB).catch((e) => e);
    const missing = await h.client.getExternalAccount({ id: newId('ExternalAccount') }, platformB).catch((e) => e);
    expect([foreign.code, foreign.message]).toEqual([missing.code, missing.message]);
    expect(foreign.code).toBe('REFERENCE_NOT_FOUND');
    await expect(h.client.deleteExternalAccount({ id: account!.id, owner: '' }, platformB)).rejects.toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
    });
    await expect(h.client.updateExternalAccountStatus({ id: account!.id, status: 'ACTIVE' }, platformB)).rejects
      .toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
  });

  test('invalid bodies report every field', async () => {
    const body = externalAccountBody('USD_ACCOUNT', { customerId, currency: 'EUR' });
    body.accountInfo.routingNumber = '123456789';
    const err = await h.client.createExternalAccount(externalAccountRequest(body), platformA).catch((e) => e);
    expect([err.code, err.details.errors.map((e: { field: string }) => e.field)]).toEqual(['INVALID_INPUT', [
      'accountInfo.routingNumber',
      'currency',
    ]]);
  });

  test('ownership verification moves PENDING_OWNERSHIP_VERIFICATION once, with its event', async () => {
    const body = externalAccountBody('SOLANA_WALLET', { customerId, ownershipType: 'FIRST_PARTY' });
    const { account } = await h.client.createExternalAccount(externalAccountRequest(body), platformA);
    expect(account!.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const { account: verified } = await h.client.updateExternalAccountStatus(
      { id: account!.id, status: 'ACTIVE' },
      platformA,
    );
    expect(verified!.status).toBe('ACTIVE');
    await expect(h.client.updateExternalAccountStatus({ id: account!.id, status: 'UNVERIFIED' }, platformA)).rejects
      .toMatchObject({ code: 'INVALID_STATE' });
    await expect(h.client.updateExternalAccountStatus({ id: account!.id, status: 'BOGUS' }, platformA)).rejects
      .toMatchObject({ code: 'INVALID_INPUT' });
    const doc = await h.store.collection('external_accounts').findOne({ _id: account!.id });
    expect((doc?._outbox as Array<{ type: string; data: unknown }>)[1]).toMatchObject({
      type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED',
      data: { accountId: account!.id, customerId, previousStatus: 'PENDING_OWNERSHIP_VERIFICATION', status: 'ACTIVE' },
    });
  });

  test('a new default UMA deposit account clears the previous default', async () => {
    const first = await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('INR_ACCOUNT', { customerId, defaultUmaDepositAccount: true })),
      platformA,
    );
    const second = await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('SPARK_WALLET', { customerId, defaultUmaDepositAccount: true })),
      platformA,
    );
    expect((await h.client.getExternalAccount({ id: first.account!.id }, platformA)).account!.defaultUmaDepositAccount)
      .toBe(false);
    expect(second.account!.defaultUmaDepositAccount).toBe(true);
  });
});
