import type { PlatformFeeConfig } from '../../payments/domain/fees';
import type { CurrencyBounds, CurrencyLimit } from '../../payments/domain/limits';
import type { Caller } from './payment-accounts';

/** What payments need of a platform's configuration (PATCH /config, owned by the accounts service). */
export interface PaymentSettings {
  feeConfigs: PlatformFeeConfig[];
  limits: CurrencyLimit[];
  /** `supportedCurrencies[].minAmount`/`maxAmount`: what may be sent in each currency. */
  currencyBounds: CurrencyBounds[];
}

export interface PaymentSettingsSource {
  get(caller: Caller): Promise<PaymentSettings>;
}

export const NO_SETTINGS: PaymentSettings = { feeConfigs: [], limits: [], currencyBounds: [] };
