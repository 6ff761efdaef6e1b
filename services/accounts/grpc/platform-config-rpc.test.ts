import { configChangesOf, customerFieldsOf } from '../test-fixtures/request-bodies';
import { platformConfigId } from '../domain/name-based-id';
import { startAccountsService, type AccountsHarness } from '../test-fixtures/accounts-service-harness';
import { FULL_CONFIG_UPDATE } from '../test-fixtures/platform-config-bodies';

let h: AccountsHarness;
let platform: { platformId: string };
beforeAll(async () => {
  h = await startAccountsService({ ACCOUNTS_PLATFORM_CURRENCIES: 'USD,MXN', ACCOUNTS_UMA_DOMAIN: 'uma.test' });
  platform = await h.newPlatform();
});
afterAll(() => h.stop());

const CURRENCY_DEFAULTS = {
  minAmount: 1,
  requiredCounterpartyFields: [],
  providerRequiredCustomerFields: [],
  providerRequiredCounterpartyCustomerFields: [],
  enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
};

describe('GetPlatformConfig', () => {
  test('a new platform: its currencies with defaults, no fees, limits, wallets or webhook', async () => {
    const p = await h.newPlatform();
    const { config } = await h.client.getPlatformConfig({}, p);
    expect(config).toEqual({
      id: platformConfigId(p.platformId),
      umaDomain: 'uma.test',
      isRegulatedFinancialInstitution: false,
      supportedCurrencies: [{ currencyCode: 'USD', maxAmount: 100_000_000, ...CURRENCY_DEFAULTS }, {
        currencyCode: 'MXN',
        maxAmount: 100_000_000,
        ...CURRENCY_DEFAULTS,
      }],
      feeConfigs: [],
      limits: [],
      webhookExtensionTypes: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  test('a platform never ensured is NOT_FOUND; a call without a platform is UNAUTHORIZED', async () => {
    await expect(h.client.getPlatformConfig({}, { platformId: 'Platform:00000000-0000-4000-8000-00000000dead' }))
      .rejects.toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
    await expect(h.client.getPlatformConfig({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('GetWebhookEndpoint', () => {
  test('empty until an endpoint is configured, then that URL; NOT_FOUND for a platform never ensured', async () => {
    const p = await h.newPlatform();
    await expect(h.client.getWebhookEndpoint({}, p)).resolves.toEqual({ url: '', extensionTypes: [] });
    await h.client.updatePlatformConfig({
      changes: configChangesOf({ webhookEndpoint: 'https://hooks.example.com/grid' }),
    }, p);
    await expect(h.client.getWebhookEndpoint({}, p)).resolves.toEqual({
      url: 'https://hooks.example.com/grid',
      extensionTypes: [],
    });
    await h.client.updatePlatformConfig({
      changes: configChangesOf({ webhookExtensionTypes: ['QUOTE.CREATED', 'CUSTOMER.CREATED'] }),
    }, p);
    await expect(h.client.getWebhookEndpoint({}, p)).resolves.toEqual({
      url: 'https://hooks.example.com/grid',
      extensionTypes: ['QUOTE.CREATED', 'CUSTOMER.CREATED'],
    });
    await expect(h.client.getWebhookEndpoint({}, { platformId: 'Platform:00000000-0000-4000-8000-00000000dead' }))
      .rejects.toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
  });
});

describe('UpdatePlatformConfig', () => {
  test('stores every member, answers and serves the result, records PLATFORM.CONFIG_UPDATED v1', async () => {
    const { config } = await h.client.updatePlatformConfig({ changes: configChangesOf(FULL_CONFIG_UPDATE) }, platform);
    expect(config).toMatchObject({
      umaDomain: 'mycompany.com',
      webhookEndpoint: FULL_CONFIG_UPDATE.webhookEndpoint,
      embeddedWalletConfig: FULL_CONFIG_UPDATE.embeddedWalletConfig,
      cardTokenization2faConfig: FULL_CONFIG_UPDATE.cardTokenization2faConfig,
      feeConfigs: FULL_CONFIG_UPDATE.feeConfigs,
      limits: FULL_CONFIG_UPDATE.limits,
    });
    expect(
      config!.supportedCurrencies.map((c) => [c.currencyCode, c.minAmount, c.maxAmount, c.enabledTransactionTypes]),
    ).toEqual([
      ['USD', 100, 1000000, ['OUTGOING', 'INCOMING']],
      ['MXN', 1000, 50000000, ['INCOMING']],
    ]);
    await expect(h.client.getPlatformConfig({}, platform)).resolves.toEqual({ config });
    const doc = await h.store.collection('platforms').findOne({ _id: platform.platformId });
    expect((doc?._outbox as Array<{ type: string; version: number; data: unknown }>).at(-1)).toMatchObject({
      type: 'PLATFORM.CONFIG_UPDATED',
      version: 1,
      aggregateId: platform.platformId,
      data: {
        platformId: platform.platformId,
        changedFields: [
          'umaDomain',
          'webhookEndpoint',
          'supportedCurrencies',
          'embeddedWalletConfig',
          'cardTokenization2faConfig',
          'feeConfigs',
          'limits',
        ],
      },
    });
  });

  test('a partial update leaves the rest; fee configs and limits merge by key', async () => {
    const p = await h.newPlatform();
    await h.client.updatePlatformConfig({ changes: configChangesOf(FULL_CONFIG_UPDATE) }, p);
    const { config } = await h.client.updatePlatformConfig({
      changes: configChangesOf({
        embeddedWalletConfig: { otpLength: 6 },
        feeConfigs: [{
          feeType: 'CROSS_CURRENCY_TRANSACTION',
          sourceCurrency: 'USD',
          variableFeeBps: 0,
          fixedFee: { amount: 0, currency: 'USD' },
        }],
        limits: [{ currency: 'USD', receivingCurrency: 'MXN' }],
      }),
    }, p);
    expect(config!.embeddedWalletConfig).toEqual({ ...FULL_CONFIG_UPDATE.embeddedWalletConfig, otpLength: 6 });
    expect(config!.feeConfigs).toEqual([]);
    expect(config!.limits).toEqual([FULL_CONFIG_UPDATE.limits[0]]);
    expect(config!.webhookEndpoint).toBe(FULL_CONFIG_UPDATE.webhookEndpoint);
  });

  test('a newly supported currency opens the platform internal account and is offered to customers', async () => {
    const p = await h.newPlatform();
    const currencies = ['USD', 'USDC'].map((currencyCode) => ({
      currencyCode,
      minAmount: 1,
      maxAmount: 100,
      requiredCounterpartyFields: [],
      enabledTransactionTypes: ['OUTGOING'],
    }));
    await h.client.updatePlatformConfig({ changes: configChangesOf({ supportedCurrencies: currencies }) }, p);
    const { accounts } = await h.client.listPlatformInternalAccounts({}, p);
    expect(accounts.map((a) => a.balance!.currency!.code).sort()).toEqual(['MXN', 'USD', 'USDC']);
    await expect(
      h.client.createCustomer({ customer: customerFieldsOf({ customerType: 'INDIVIDUAL', currencies: ['USDC'] }) }, p),
    ).resolves.toBeDefined();
    await expect(
      h.client.createCustomer({ customer: customerFieldsOf({ customerType: 'INDIVIDUAL', currencies: ['MXN'] }) }, p),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await h.client.getPlatform({}, p)).platform!.supportedCurrencies).toEqual(['USD', 'USDC']);
  });

  test('invalid members: INVALID_INPUT listing each; a non-USD fee source: NOT_IMPLEMENTED; none stored', async () => {
    const p = await h.newPlatform();
    const err = await h.client.updatePlatformConfig({
      changes: configChangesOf({ webhookEndpoint: 'ftp://x', limits: [{ currency: 'USD', dailyVolume: -5 }] }),
    }, p).catch((e) => e);
    expect([err.code, err.details.errors.map((e: { field: string }) => e.field)]).toEqual(['INVALID_INPUT', [
      'webhookEndpoint',
      'limits[0].dailyVolume',
    ]]);
    const eur = {
      feeType: 'CROSS_CURRENCY_TRANSACTION',
      sourceCurrency: 'EUR',
      variableFeeBps: 5,
      fixedFee: { amount: 0, currency: 'EUR' },
    };
    await expect(h.client.updatePlatformConfig({ changes: configChangesOf({ feeConfigs: [eur] }) }, p)).rejects
      .toMatchObject({ code: 'NOT_IMPLEMENTED' });
    expect((await h.client.getPlatformConfig({}, p)).config!.feeConfigs).toEqual([]);
  });

  test('GetPlatform carries the embedded-wallet configuration once configured', async () => {
    const p = await h.newPlatform();
    expect((await h.client.getPlatform({}, p)).platform!.embeddedWalletConfig).toBeUndefined();
    await h.client.updatePlatformConfig({
      changes: configChangesOf({ embeddedWalletConfig: { appName: 'W', otpLength: 8 } }),
    }, p);
    expect((await h.client.getPlatform({}, p)).platform!.embeddedWalletConfig).toEqual({ appName: 'W', otpLength: 8 });
  });
});

describe('End User Terms', () => {
  let terms: AccountsHarness;
  let p: { platformId: string };
  const consent = (termsVersion: string) => ({
    acceptedAt: '2025-10-03T12:00:00Z',
    ipAddress: '198.51.100.24',
    termsVersion,
    acceptanceMethod: 'CHECKBOX',
  });
  beforeAll(async () => {
    terms = await startAccountsService({
      ACCOUNTS_END_USER_TERMS_VERSION: 'V2',
      ACCOUNTS_END_USER_TERMS_PREVIOUS_VERSIONS: 'V1',
      ACCOUNTS_END_USER_TERMS_URL: 'https://terms.example/v2',
    });
    p = await terms.newPlatform();
  });
  afterAll(() => terms.stop());

  test('GetEndUserTerms answers the configured current version and URL', async () => {
    await expect(terms.client.getEndUserTerms({})).resolves.toEqual({ version: 'V2', url: 'https://terms.example/v2' });
    await expect(h.client.getEndUserTerms({})).resolves.toEqual({
      version: 'V1',
      url: 'https://grid.sandbox.local/legal/end-user-terms/V1',
    });
  });

  test('consent to an unknown version is END_USER_TERMS_VERSION_NOT_FOUND, on create and on update', async () => {
    await expect(
      terms.client.createCustomer({
        customer: customerFieldsOf({ customerType: 'INDIVIDUAL', endUserTermsConsent: consent('V9') }),
      }, p),
    )
      .rejects.toMatchObject({
        code: 'END_USER_TERMS_VERSION_NOT_FOUND',
        details: { field: 'endUserTermsConsent.termsVersion', currentVersion: 'V2' },
      });
    const { customer } = await terms.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }),
    }, p);
    await expect(
      terms.client.updateCustomer({
        id: customer!.id,
        changes: customerFieldsOf({ customerType: 'INDIVIDUAL', endUserTermsConsent: consent('v2') }),
      }, p),
    )
      .rejects.toMatchObject({ code: 'END_USER_TERMS_VERSION_NOT_FOUND' });
  });

  test('the recorded consent tells quotes whether the current version is accepted', async () => {
    const { customer } = await terms.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL', endUserTermsConsent: consent('V1') }),
    }, p);
    expect(customer).toMatchObject({
      endUserTermsConsent: consent('V1'),
      acceptedTermsVersion: 'V1',
      acceptsCurrentTerms: false,
    });
    const { customer: updated } = await terms.client.updateCustomer({
      id: customer!.id,
      changes: customerFieldsOf({ customerType: 'INDIVIDUAL', endUserTermsConsent: consent('V2') }),
    }, p);
    expect(updated).toMatchObject({ acceptedTermsVersion: 'V2', acceptsCurrentTerms: true });
    expect((await terms.client.getCustomer({ id: customer!.id }, p)).customer).toMatchObject({
      acceptsCurrentTerms: true,
    });
    const { customer: none } = await terms.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }),
    }, p);
    expect([none!.acceptedTermsVersion, none!.acceptsCurrentTerms]).toEqual([undefined, false]);
  });
});
