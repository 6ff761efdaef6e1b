import { applyConfigChanges, changedConfigFields, defaultSettings, type FeeConfig } from './platform-config';

const usdFee = (variableFeeBps: number, amount: number): FeeConfig => ({
  feeType: 'CROSS_CURRENCY_TRANSACTION',
  sourceCurrency: 'USD',
  variableFeeBps,
  fixedFee: { amount, currency: 'USD' },
});

describe('platform settings', () => {
  test('defaults: every currency both ways, from 1 minor unit to a million whole units; no fees or limits', () => {
    expect(defaultSettings(['USD', 'BTC'])).toEqual({
      currencyConfigs: [
        {
          currencyCode: 'USD',
          minAmount: 1,
          maxAmount: 100_000_000,
          requiredCounterpartyFields: [],
          enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
        },
        {
          currencyCode: 'BTC',
          minAmount: 1,
          maxAmount: 100_000_000_000_000,
          requiredCounterpartyFields: [],
          enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
        },
      ],
      isRegulatedFinancialInstitution: false,
      feeConfigs: [],
      limits: [],
    });
  });

  test('fee configs merge by fee type and source; both fees 0 deactivates', () => {
    const start = { ...defaultSettings(['USD']), feeConfigs: [usdFee(30, 100)] };
    expect(applyConfigChanges(start, { feeConfigs: [usdFee(50, 0)] }).feeConfigs).toEqual([usdFee(50, 0)]);
    expect(applyConfigChanges(start, { feeConfigs: [usdFee(0, 0)] }).feeConfigs).toEqual([]);
  });

  test('limits merge by currency and receiving currency; an entry without a limit removes its key', () => {
    const start = {
      ...defaultSettings(['USD']),
      limits: [{ currency: 'USD', maxSingleTransaction: 10 }, {
        currency: 'USD',
        receivingCurrency: 'MXN',
        dailyVolume: 5,
      }],
    };
    const next = applyConfigChanges(start, {
      limits: [{ currency: 'USD', dailyVolume: 99 }, { currency: 'USD', receivingCurrency: 'MXN' }, {
        currency: 'EUR',
        maxSingleTransaction: 7,
      }],
    });
    expect(next.limits).toEqual([{ currency: 'USD', dailyVolume: 99 }, { currency: 'EUR', maxSingleTransaction: 7 }]);
  });

  test('nested configs merge member by member; absent members are left unchanged', () => {
    const start = {
      ...defaultSettings(['USD']),
      webhookEndpoint: 'https://a.example/hook',
      embeddedWalletConfig: { appName: 'Old', otpLength: 6 },
      cardTokenization2faConfig: { displayName: 'Acme', email: { fromName: 'A', subject: 'S' } },
    };
    const next = applyConfigChanges(start, {
      embeddedWalletConfig: { otpLength: 8 },
      cardTokenization2faConfig: { email: { subject: 'T' }, sms: { templateSid: 'HJ1' } },
    });
    expect(next.embeddedWalletConfig).toEqual({ appName: 'Old', otpLength: 8 });
    expect(next.cardTokenization2faConfig).toEqual({
      displayName: 'Acme',
      email: { fromName: 'A', subject: 'T' },
      sms: { templateSid: 'HJ1' },
    });
    expect(next.webhookEndpoint).toBe('https://a.example/hook');
  });

  test('the event names the members changed, as the REST request spells them', () => {
    expect(changedConfigFields({ currencyConfigs: [], webhookEndpoint: 'https://x.example' })).toEqual([
      'supportedCurrencies',
      'webhookEndpoint',
    ]);
  });
});
