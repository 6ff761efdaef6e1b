import type { Directory, DiscoveryEntry, UmaProviderEntry } from '../app/directory';

/**
 * The sandbox's directory. Every UMA provider listed is answered by the sandbox counterparty that
 * receiver lookups use (`GET /receiver/uma/$name.<currency>@<domain>` answers 200 for each currency
 * listed); `Sandbox Blocked VASP` is off the allowlist, to show `hasBlockedProviders=false`.
 */
export const SANDBOX_UMA_PROVIDERS: readonly UmaProviderEntry[] = [
  {
    name: 'Grid Sandbox',
    domain: 'sandbox.grid.uma.money',
    supportedRegions: ['US', 'MX', 'BR', 'IN', 'DE', 'FR', 'ES', 'NL'],
    supportedCurrencies: ['USD', 'MXN', 'BRL', 'INR', 'EUR', 'USDC', 'USDT', 'BTC'],
    logoUrl: 'https://sandbox.grid.uma.money/logo.png',
    lei: '5493000SANDBOX00GRID1',
    allowListStatus: true,
  },
  {
    name: 'Sandbox LatAm Wallet',
    domain: 'latam.sandbox.grid.uma.money',
    supportedRegions: ['MX', 'BR'],
    supportedCurrencies: ['MXN', 'BRL', 'USD'],
    allowListStatus: true,
  },
  {
    name: 'Sandbox Euro Pay',
    domain: 'eu.sandbox.grid.uma.money',
    supportedRegions: ['DE', 'FR', 'ES', 'NL'],
    supportedCurrencies: ['EUR'],
    allowListStatus: true,
  },
  {
    name: 'Sandbox Blocked VASP',
    domain: 'blocked.sandbox.grid.uma.money',
    supportedRegions: ['US'],
    supportedCurrencies: ['USD'],
    allowListStatus: false,
  },
];

const bank = (country: string, currency: string, bankName: string, displayName = bankName): DiscoveryEntry => ({
  bankName,
  displayName,
  country,
  currency,
});

/**
 * Banks and payment providers per corridor: every bank-account variant the sandbox accepts
 * (USD, MXN, EUR, BRL, INR). USD and INR accounts take these `bankName` values; MXN (CLABE),
 * EUR (IBAN) and BRL (PIX) accounts name their institution by their identifiers instead.
 */
export const SANDBOX_DISCOVERIES: readonly DiscoveryEntry[] = [
  bank('US', 'USD', 'JPMorgan Chase', 'JPMorgan Chase Bank, N.A.'),
  bank('US', 'USD', 'Bank of America', 'Bank of America, N.A.'),
  bank('US', 'USD', 'Wells Fargo', 'Wells Fargo Bank, N.A.'),
  bank('MX', 'MXN', 'BBVA Mexico', 'BBVA México'),
  bank('MX', 'MXN', 'Banorte', 'Banco Mercantil del Norte'),
  bank('MX', 'MXN', 'Santander Mexico', 'Banco Santander México'),
  bank('DE', 'EUR', 'Deutsche Bank', 'Deutsche Bank AG'),
  bank('FR', 'EUR', 'BNP Paribas'),
  bank('ES', 'EUR', 'Banco Santander', 'Banco Santander, S.A.'),
  bank('BR', 'BRL', 'Itau Unibanco', 'Itaú Unibanco'),
  bank('BR', 'BRL', 'Nubank', 'Nu Pagamentos'),
  bank('IN', 'INR', 'State Bank of India'),
  bank('IN', 'INR', 'HDFC Bank'),
  bank('IN', 'INR', 'ICICI Bank'),
];

export function createSandboxDirectory(): Directory {
  return {
    umaProviders: async () =>
      SANDBOX_UMA_PROVIDERS.map((p) => ({
        ...p,
        supportedRegions: [...p.supportedRegions],
        supportedCurrencies: [...p.supportedCurrencies],
      })),
    discoveries: async () => SANDBOX_DISCOVERIES.map((d) => ({ ...d })),
  };
}
