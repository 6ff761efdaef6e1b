import type { PlatformConfigChanges } from '../../../gen/accounts/v1/platform_config_changes';
import type { CustomerFields } from '../../../gen/accounts/v1/customer_requests';
import { CreateExternalAccountRequest } from '../../../gen/accounts/v1/external_account_requests';
/** Valid REST bodies for tests; each test changes one member to make it invalid. */
export const INDIVIDUAL_CUSTOMER = {
  customerType: 'INDIVIDUAL',
  platformCustomerId: 'ind-9f84e0c2',
  region: 'US',
  currencies: ['USD', 'USDC'],
  fullName: 'Jane Smith',
  birthDate: '1990-01-15',
  nationality: 'US',
  email: 'jane.smith@example.com',
  phoneNumber: '+14155551234',
};

export const BUSINESS_CUSTOMER = {
  customerType: 'BUSINESS',
  platformCustomerId: 'biz-acme-001',
  region: 'US',
  currencies: ['USD', 'USDC'],
  email: 'finance@acme.com',
  phoneNumber: '+14155559876',
  businessInfo: {
    legalName: 'Acme Corporation',
    doingBusinessAs: 'Acme',
    country: 'US',
    registrationNumber: '5523041',
    incorporatedOn: '2018-03-14',
    entityType: 'LLC',
    taxId: '47-1234567',
    countriesOfOperation: ['US'],
    businessType: 'INFORMATION',
    purposeOfAccount: 'CONTRACTOR_PAYOUTS',
    sourceOfFunds: 'Funds derived from customer payments for software services',
    expectedMonthlyTransactionCount: 'COUNT_100_TO_500',
    expectedMonthlyTransactionVolume: 'VOLUME_100K_TO_1M',
    expectedRecipientJurisdictions: ['US', 'MX'],
  },
  address: { line1: '123 Market Street', line2: 'Suite 400', city: 'Seattle', state: 'WA', postalCode: '98101', country: 'US' },
};

export const INDIVIDUAL_BENEFICIARY = { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe', countryOfResidence: 'US' };

/** One valid accountInfo per supported variant, with the currency it holds. */
export const ACCOUNT_INFO = {
  USD_ACCOUNT: { currency: 'USD', info: { accountType: 'USD_ACCOUNT', accountNumber: '12345678901', routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Chase Bank', beneficiary: INDIVIDUAL_BENEFICIARY } },
  MXN_ACCOUNT: { currency: 'MXN', info: { accountType: 'MXN_ACCOUNT', clabeNumber: '032180000118359719', beneficiary: INDIVIDUAL_BENEFICIARY } },
  EUR_ACCOUNT: { currency: 'EUR', info: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF', beneficiary: INDIVIDUAL_BENEFICIARY } },
  BRL_ACCOUNT: { currency: 'BRL', info: { accountType: 'BRL_ACCOUNT', pixKey: 'ana@example.com', pixKeyType: 'EMAIL', taxId: '52998224725', beneficiary: INDIVIDUAL_BENEFICIARY } },
  INR_ACCOUNT: { currency: 'INR', info: { accountType: 'INR_ACCOUNT', accountNumber: '123456789012', ifsc: 'HDFC0001234', rail: 'NEFT', beneficiary: INDIVIDUAL_BENEFICIARY } },
  ETHEREUM_WALLET: { currency: 'USDC', info: { accountType: 'ETHEREUM_WALLET', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' } },
  BASE_WALLET: { currency: 'USDC', info: { accountType: 'BASE_WALLET', address: '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359' } },
  POLYGON_WALLET: { currency: 'USDC', info: { accountType: 'POLYGON_WALLET', address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB' } },
  PLASMA_WALLET: { currency: 'USDT', info: { accountType: 'PLASMA_WALLET', address: '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb' } },
  SOLANA_WALLET: { currency: 'USDC', info: { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' } },
  TRON_WALLET: { currency: 'USDT', info: { accountType: 'TRON_WALLET', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' } },
  SPARK_WALLET: { currency: 'BTC', info: { accountType: 'SPARK_WALLET', address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' } },
  LIGHTNING: { currency: 'BTC', info: { accountType: 'LIGHTNING', lightningAddress: 'alice@example.com' } },
} as const;

/** BOLT 11 test vector (payment of any amount, lnbc). */
export const BOLT11_INVOICE =
  'lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql';

export function externalAccountBody(variant: keyof typeof ACCOUNT_INFO, extra: Record<string, unknown> = {}) {
  const { currency, info } = ACCOUNT_INFO[variant];
  return { currency, accountInfo: structuredClone(info) as Record<string, unknown>, ...extra };
}

/** A REST external-account body as its CreateExternalAccountRequest (repeated members filled in as on the wire). */
export const externalAccountRequest = (body: object) => CreateExternalAccountRequest.fromPartial(body as CreateExternalAccountRequest);

/** A REST body as its request message: every list (a `*List` message on the wire) wrapped with its presence. */
function withListMessages(value: unknown): unknown {
  if (Array.isArray(value)) return { values: value.map(withListMessages) };
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withListMessages(v)]));
}

export const customerFieldsOf = (body: object) => withListMessages(body) as CustomerFields;
export const configChangesOf = (body: object) => withListMessages(body) as PlatformConfigChanges;
