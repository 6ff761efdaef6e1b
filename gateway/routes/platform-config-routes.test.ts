import { FULL_CONFIG_UPDATE } from '../../services/accounts/test-fixtures/platform-config-bodies';
import { referenceProblems } from '../../test/contract/reference-contract';
import { startAccountsGateway } from '../../services/accounts/test-fixtures/accounts-gateway-harness';

let gw: Awaited<ReturnType<typeof startAccountsGateway>>;
let auth: string;
beforeAll(async () => {
  gw = await startAccountsGateway({ ACCOUNTS_PLATFORM_CURRENCIES: 'USD,MXN' });
  auth = (await gw.newPlatform()).auth;
});
afterAll(() => gw.stop());

describe('GET and PATCH /config', () => {
  test('GET: the reference PlatformConfig of a new platform', async () => {
    const res = await gw.api(auth, '/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^PlatformConfig:[0-9a-f-]{36}$/),
      umaDomain: 'uma.sandbox.local',
      isRegulatedFinancialInstitution: false,
      supportedCurrencies: ['USD', 'MXN'].map((currencyCode) => ({
        currencyCode,
        minAmount: 1,
        maxAmount: 100000000,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
      })),
      feeConfigs: [],
      limits: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  test('PATCH: 200 with the updated configuration, which GET then serves', async () => {
    const res = await gw.api(auth, '/config', { method: 'PATCH', json: FULL_CONFIG_UPDATE });
    expect(res.status).toBe(200);
    const { supportedCurrencies, ...rest } = FULL_CONFIG_UPDATE;
    expect(res.body).toMatchObject({ ...rest, supportedCurrencies });
    expect((await gw.api(auth, '/config')).body).toEqual(res.body);
  });

  test('PATCH: 400 INVALID_INPUT listing each bad field; 501 NOT_IMPLEMENTED for a non-USD fee source', async () => {
    const invalid = await gw.api(auth, '/config', {
      method: 'PATCH',
      json: {
        embeddedWalletConfig: { otpLength: 20 },
        webhookEndpoint: 'nope',
        umaDomain: 'not a domain',
        webhookExtensionTypes: ['OUTGOING_PAYMENT.COMPLETED'],
        limits: [{ currency: 'XYZ', dailyVolume: 5 }],
      },
    });
    // the contract's shape errors first, then the configuration's rules, in one envelope
    expect([invalid.status, invalid.body.code, invalid.body.details.errors.map((e: { field: string }) => e.field)])
      .toEqual([400, 'INVALID_INPUT', [
        'umaDomain',
        'webhookEndpoint',
        'embeddedWalletConfig.otpLength',
        'webhookExtensionTypes[0]',
        'limits[0].currency',
      ]]);
    const eur = {
      feeType: 'CROSS_CURRENCY_TRANSACTION',
      sourceCurrency: 'EUR',
      variableFeeBps: 10,
      fixedFee: { amount: 0, currency: 'EUR' },
    };
    const notImplemented = await gw.api(auth, '/config', { method: 'PATCH', json: { feeConfigs: [eur] } });
    expect([notImplemented.status, notImplemented.body.status, notImplemented.body.code]).toEqual([
      501,
      501,
      'NOT_IMPLEMENTED',
    ]);
    const noBody = await gw.api(auth, '/config', { method: 'PATCH' });
    expect([noBody.status, noBody.body.code]).toEqual([400, 'INVALID_INPUT']);
  });

  test('cardTokenization2faConfig: every invalid member listed at once, as the reference bounds them', async () => {
    const res = await gw.api(auth, '/config', {
      method: 'PATCH',
      json: {
        cardTokenization2faConfig: {
          displayName: 'x'.repeat(256),
          logoUrl: 'http://acme.com/logo.png',
          email: {
            fromAddress: 'not-an-email',
            fromName: 'n'.repeat(256),
            replyToAddress: 'support@',
            subject: 's'.repeat(256),
            bodyText: 'b'.repeat(2001),
          },
          sms: { templateSid: 'H'.repeat(65), bodyText: 'b'.repeat(481) },
        },
      },
    });
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_INPUT']);
    expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'cardTokenization2faConfig.displayName',
      'cardTokenization2faConfig.logoUrl',
      'cardTokenization2faConfig.email.fromAddress',
      'cardTokenization2faConfig.email.fromName',
      'cardTokenization2faConfig.email.replyToAddress',
      'cardTokenization2faConfig.email.subject',
      'cardTokenization2faConfig.email.bodyText',
      'cardTokenization2faConfig.sms.templateSid',
      'cardTokenization2faConfig.sms.bodyText',
    ]);
    expect(res.body.details.errors[1]).toMatchObject({ constraint: { pattern: '^https://' } });
    const wrongTypes = await gw.api(auth, '/config', {
      method: 'PATCH',
      json: { cardTokenization2faConfig: { displayName: 5, email: 'cards@acme.com', sms: { templateSid: [] } } },
    });
    expect(wrongTypes.body.details.errors.map((e: { field: string; message: string }) => [e.field, e.message])).toEqual(
      [
        ['cardTokenization2faConfig.displayName', 'must be a string'],
        ['cardTokenization2faConfig.email', 'must be an object'],
        ['cardTokenization2faConfig.sms.templateSid', 'must be a string'],
      ],
    );
  });

  test("cardTokenization2faConfig: given members change, others stay; GET answers the reference's shape", async () => {
    const { auth } = await gw.newPlatform();
    const first = {
      displayName: 'Acme',
      logoUrl: 'https://acme.com/card.png',
      email: { fromAddress: 'cards@acme.com', subject: 'Your code' },
      sms: { templateSid: 'HJ1' },
    };
    expect(
      (await gw.api(auth, '/config', { method: 'PATCH', json: { cardTokenization2faConfig: first } })).body
        .cardTokenization2faConfig,
    ).toEqual(first);
    const res = await gw.api(auth, '/config', {
      method: 'PATCH',
      json: {
        cardTokenization2faConfig: { email: { subject: 'Your Acme code', bodyText: '' }, sms: { bodyText: 'Code:' } },
      },
    });
    const merged = {
      ...first,
      email: { fromAddress: 'cards@acme.com', subject: 'Your Acme code', bodyText: '' },
      sms: { templateSid: 'HJ1', bodyText: 'Code:' },
    };
    expect(res.body.cardTokenization2faConfig).toEqual(merged);
    const read = await gw.api(auth, '/config');
    expect(read.body.cardTokenization2faConfig).toEqual(merged);
    expect(referenceProblems('GET', '/config', 200, read.body)).toEqual([]);
    expect(referenceProblems('PATCH', '/config', 200, res.body)).toEqual([]);
  });

  test('without credentials: 401', async () => {
    expect((await gw.api('Basic bm86bm8=', '/config')).status).toBe(401);
  });
});

describe('End User Terms', () => {
  test('GET /customers/end-user-terms: the current version and URL', async () => {
    const res = await gw.api(auth, '/customers/end-user-terms');
    expect([res.status, res.body]).toEqual([200, {
      version: 'V1',
      url: 'https://grid.sandbox.local/legal/end-user-terms/V1',
    }]);
  });

  test('POST /customers, consent to an unknown version: 400 END_USER_TERMS_VERSION_NOT_FOUND; known: ok', async () => {
    const consent = (termsVersion: string) => ({
      acceptedAt: '2025-10-03T12:00:00Z',
      ipAddress: '198.51.100.24',
      termsVersion,
      acceptanceMethod: 'CLICK_TO_ACCEPT',
    });
    const unknown = await gw.api(auth, '/customers', {
      method: 'POST',
      json: { customerType: 'INDIVIDUAL', endUserTermsConsent: consent('V7') },
    });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'END_USER_TERMS_VERSION_NOT_FOUND']);
    const created = await gw.api(auth, '/customers', {
      method: 'POST',
      json: { customerType: 'INDIVIDUAL', endUserTermsConsent: consent('V1') },
    });
    expect([created.status, created.body.endUserTermsConsent]).toEqual([201, consent('V1')]);
    const patched = await gw.api(auth, `/customers/${created.body.id}`, {
      method: 'PATCH',
      json: { customerType: 'INDIVIDUAL', endUserTermsConsent: consent('V0') },
    });
    expect([patched.status, patched.body.code]).toEqual([400, 'END_USER_TERMS_VERSION_NOT_FOUND']);
  });
});
