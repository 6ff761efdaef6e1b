import type { PlatformConfig } from '../../../../gen/accounts/v1/platform_config';
import { unlessAbsent } from '../../../../lib/errors';
import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import { NO_SETTINGS, type PaymentSettings, type PaymentSettingsSource } from '../app/payment-settings';

/** What payments use of a platform configuration; NO_SETTINGS without one. */
export function paymentSettingsOf(config: PlatformConfig | undefined): PaymentSettings {
  if (!config) return NO_SETTINGS;
  return {
    feeConfigs: config.feeConfigs.filter((f) => f.feeType === 'CROSS_CURRENCY_TRANSACTION').map((f) => ({
      feeType: 'CROSS_CURRENCY_TRANSACTION' as const,
      sourceCurrency: f.sourceCurrency,
      variableFeeBps: f.variableFeeBps,
      fixedFee: { amount: f.fixedFee?.amount ?? 0, currency: f.fixedFee?.currency ?? f.sourceCurrency },
    })),
    limits: config.limits.map((l) => ({
      currency: l.currency,
      ...(l.receivingCurrency ? { receivingCurrency: l.receivingCurrency } : {}),
      ...(l.maxSingleTransaction !== undefined ? { maxSingleTransaction: l.maxSingleTransaction } : {}),
      ...(l.dailyVolume !== undefined ? { dailyVolume: l.dailyVolume } : {}),
    })),
    currencyBounds: config.supportedCurrencies.map((c) => ({
      currency: c.currencyCode,
      minAmount: c.minAmount,
      maxAmount: c.maxAmount,
    })),
  };
}

/**
 * Fee configs, limits and per-currency bounds from the platform configuration the accounts service keeps (PATCH
 * /config).
 */
export function createPlatformConfigSettings(peers: Pick<PeerClients, 'accounts'>): PaymentSettingsSource {
  return {
    async get(caller) {
      // A platform never set up has no configuration: NO_SETTINGS.
      return paymentSettingsOf((await unlessAbsent(peers.accounts.getPlatformConfig({}, caller)))?.config);
    },
  };
}
