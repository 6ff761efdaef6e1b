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
  address: {
    line1: '123 Market Street',
    line2: 'Suite 400',
    city: 'Seattle',
    state: 'WA',
    postalCode: '98101',
    country: 'US',
  },
};

export const INDIVIDUAL_BENEFICIARY = { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe', countryOfResidence: 'US' };

const PERSON = { beneficiaryType: 'INDIVIDUAL', fullName: 'Amara Okafor' };
const HOME = { line1: '12 Harbour Road', city: 'Kingston', postalCode: 'JMAKN05', country: 'JM' };
const COMPANY = { beneficiaryType: 'BUSINESS', legalName: 'Shanghai Lantern Trading Co., Ltd.' };

/** One valid accountInfo per account type (real-world identifiers), with the currency it holds. */
export const ACCOUNT_INFO = {
  AED_ACCOUNT: {
    currency: 'AED',
    info: {
      accountType: 'AED_ACCOUNT',
      iban: 'AE070331234567890123456',
      swiftCode: 'EBILAEAD',
      beneficiary: {
        ...PERSON,
        address: { line1: 'Sheikh Zayed Road 1', city: 'Dubai', postalCode: '00000', country: 'AE' },
      },
    },
  },
  BDT_ACCOUNT: {
    currency: 'BDT',
    info: {
      accountType: 'BDT_ACCOUNT',
      bankName: 'Sonali Bank',
      accountNumber: '0123456789012',
      branchCode: '12345',
      beneficiary: PERSON,
    },
  },
  BRL_ACCOUNT: {
    currency: 'BRL',
    info: {
      accountType: 'BRL_ACCOUNT',
      pixKey: 'ana@example.com',
      pixKeyType: 'EMAIL',
      taxId: '52998224725',
      beneficiary: INDIVIDUAL_BENEFICIARY,
    },
  },
  BWP_ACCOUNT: {
    currency: 'BWP',
    info: { accountType: 'BWP_ACCOUNT', phoneNumber: '+26771234567', provider: 'Orange Money', beneficiary: PERSON },
  },
  CAD_ACCOUNT: {
    currency: 'CAD',
    info: {
      accountType: 'CAD_ACCOUNT',
      bankCode: '001',
      branchCode: '00012',
      accountNumber: '1234567',
      beneficiary: PERSON,
    },
  },
  CNY_ACCOUNT: {
    currency: 'CNY',
    info: {
      accountType: 'CNY_ACCOUNT',
      bankName: 'Bank of China',
      accountNumber: '6217000010001234567',
      beneficiary: COMPANY,
    },
  },
  COP_ACCOUNT: {
    currency: 'COP',
    info: {
      accountType: 'COP_ACCOUNT',
      bankName: 'Bancolombia',
      accountNumber: '12345678901',
      bankAccountType: 'SAVINGS',
      beneficiary: PERSON,
    },
  },
  DKK_ACCOUNT: {
    currency: 'DKK',
    info: { accountType: 'DKK_ACCOUNT', iban: 'DK5000400440116243', swiftCode: 'DABADKKK', beneficiary: PERSON },
  },
  EGP_ACCOUNT: {
    currency: 'EGP',
    info: {
      accountType: 'EGP_ACCOUNT',
      bankName: 'Banque Misr',
      iban: 'EG380019000500000000263180002',
      beneficiary: PERSON,
    },
  },
  EUR_ACCOUNT: {
    currency: 'EUR',
    info: {
      accountType: 'EUR_ACCOUNT',
      iban: 'DE89370400440532013000',
      swiftCode: 'DEUTDEFF',
      beneficiary: INDIVIDUAL_BENEFICIARY,
    },
  },
  GBP_ACCOUNT: {
    currency: 'GBP',
    info: { accountType: 'GBP_ACCOUNT', sortCode: '601613', accountNumber: '31926819', beneficiary: PERSON },
  },
  GHS_ACCOUNT: {
    currency: 'GHS',
    info: { accountType: 'GHS_ACCOUNT', bankName: 'GCB Bank', accountNumber: '1011130012345', beneficiary: PERSON },
  },
  GTQ_ACCOUNT: {
    currency: 'GTQ',
    info: {
      accountType: 'GTQ_ACCOUNT',
      bankName: 'Banco Industrial',
      accountNumber: '0123456789',
      bankAccountType: 'CHECKING',
      beneficiary: { ...PERSON, countryOfResidence: 'GT', phoneNumber: '+50222345678' },
    },
  },
  HKD_ACCOUNT: {
    currency: 'HKD',
    info: {
      accountType: 'HKD_ACCOUNT',
      bankName: 'HSBC Hong Kong',
      accountNumber: '123456789012',
      swiftCode: 'HSBCHKHHHKH',
      beneficiary: PERSON,
    },
  },
  HTG_ACCOUNT: {
    currency: 'HTG',
    info: { accountType: 'HTG_ACCOUNT', phoneNumber: '+50934567890', beneficiary: PERSON },
  },
  IDR_ACCOUNT: {
    currency: 'IDR',
    info: {
      accountType: 'IDR_ACCOUNT',
      bankName: 'Bank Central Asia',
      accountNumber: '1234567890',
      swiftCode: 'CENAIDJA',
      phoneNumber: '+6281234567890',
      beneficiary: PERSON,
    },
  },
  INR_ACCOUNT: {
    currency: 'INR',
    info: {
      accountType: 'INR_ACCOUNT',
      accountNumber: '123456789012',
      ifsc: 'HDFC0001234',
      rail: 'NEFT',
      beneficiary: INDIVIDUAL_BENEFICIARY,
    },
  },
  JMD_ACCOUNT: {
    currency: 'JMD',
    info: {
      accountType: 'JMD_ACCOUNT',
      bankName: 'National Commercial Bank',
      accountNumber: '354012345',
      branchCode: '12345',
      bankAccountType: 'SAVINGS',
      beneficiary: { ...PERSON, address: HOME, phoneNumber: '+18765551234' },
    },
  },
  KES_ACCOUNT: {
    currency: 'KES',
    info: { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678', provider: 'M-Pesa', beneficiary: PERSON },
  },
  MWK_ACCOUNT: {
    currency: 'MWK',
    info: { accountType: 'MWK_ACCOUNT', phoneNumber: '+265991234567', provider: 'Airtel Money', beneficiary: PERSON },
  },
  MXN_ACCOUNT: {
    currency: 'MXN',
    info: { accountType: 'MXN_ACCOUNT', clabeNumber: '032180000118359719', beneficiary: INDIVIDUAL_BENEFICIARY },
  },
  MYR_ACCOUNT: {
    currency: 'MYR',
    info: {
      accountType: 'MYR_ACCOUNT',
      bankName: 'Maybank',
      accountNumber: '514012345678',
      swiftCode: 'MBBEMYKL',
      beneficiary: PERSON,
    },
  },
  NGN_ACCOUNT: {
    currency: 'NGN',
    info: { accountType: 'NGN_ACCOUNT', bankName: 'Access Bank', accountNumber: '0123456789', beneficiary: PERSON },
  },
  PHP_ACCOUNT: {
    currency: 'PHP',
    info: { accountType: 'PHP_ACCOUNT', bankName: 'BDO Unibank', accountNumber: '001234567890', beneficiary: PERSON },
  },
  PKR_ACCOUNT: {
    currency: 'PKR',
    info: {
      accountType: 'PKR_ACCOUNT',
      bankName: 'Standard Chartered Pakistan',
      accountNumber: '00000011234567',
      iban: 'PK36SCBL0000001123456702',
      beneficiary: PERSON,
    },
  },
  RWF_ACCOUNT: {
    currency: 'RWF',
    info: { accountType: 'RWF_ACCOUNT', phoneNumber: '+250781234567', provider: 'MTN MoMo', beneficiary: PERSON },
  },
  SGD_ACCOUNT: {
    currency: 'SGD',
    info: {
      accountType: 'SGD_ACCOUNT',
      bankName: 'DBS Bank Ltd',
      accountNumber: '0123456789',
      swiftCode: 'DBSSSGSG',
      beneficiary: PERSON,
    },
  },
  SLV_ACCOUNT: {
    currency: 'USD',
    info: {
      accountType: 'SLV_ACCOUNT',
      bankName: 'Banco Agricola',
      accountNumber: '3001234567',
      bankAccountType: 'SAVINGS',
      beneficiary: PERSON,
    },
  },
  THB_ACCOUNT: {
    currency: 'THB',
    info: {
      accountType: 'THB_ACCOUNT',
      bankName: 'Bangkok Bank',
      accountNumber: '1234567890',
      swiftCode: 'BKKBTHBK',
      beneficiary: PERSON,
    },
  },
  TZS_ACCOUNT: {
    currency: 'TZS',
    info: { accountType: 'TZS_ACCOUNT', phoneNumber: '+255712345678', provider: 'Vodacom M-Pesa', beneficiary: PERSON },
  },
  UGX_ACCOUNT: {
    currency: 'UGX',
    info: {
      accountType: 'UGX_ACCOUNT',
      phoneNumber: '+256712345678',
      provider: 'MTN Mobile Money',
      beneficiary: PERSON,
    },
  },
  USD_ACCOUNT: {
    currency: 'USD',
    info: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '12345678901',
      routingNumber: '021000021',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      beneficiary: INDIVIDUAL_BENEFICIARY,
    },
  },
  VND_ACCOUNT: {
    currency: 'VND',
    info: {
      accountType: 'VND_ACCOUNT',
      bankName: 'Vietcombank',
      accountNumber: '0071001234567',
      swiftCode: 'BFTVVNVX',
      beneficiary: PERSON,
    },
  },
  XAF_ACCOUNT: {
    currency: 'XAF',
    info: {
      accountType: 'XAF_ACCOUNT',
      phoneNumber: '+237671234567',
      provider: 'MTN Mobile Money',
      region: 'CM',
      beneficiary: PERSON,
    },
  },
  XOF_ACCOUNT: {
    currency: 'XOF',
    info: {
      accountType: 'XOF_ACCOUNT',
      phoneNumber: '+221771234567',
      provider: 'Orange Money',
      region: 'SN',
      beneficiary: PERSON,
    },
  },
  ZAR_ACCOUNT: {
    currency: 'ZAR',
    info: { accountType: 'ZAR_ACCOUNT', bankName: 'Standard Bank', accountNumber: '1234567890', beneficiary: PERSON },
  },
  ZMW_ACCOUNT: {
    currency: 'ZMW',
    info: { accountType: 'ZMW_ACCOUNT', phoneNumber: '+260971234567', provider: 'Airtel Money', beneficiary: PERSON },
  },
  SWIFT_ACCOUNT: {
    currency: 'GBP',
    info: {
      accountType: 'SWIFT_ACCOUNT',
      country: 'GB',
      swiftCode: 'NWBKGB2L',
      bankName: 'NatWest',
      iban: 'GB29NWBK60161331926819',
      beneficiary: PERSON,
    },
  },
  ETHEREUM_WALLET: {
    currency: 'USDC',
    info: { accountType: 'ETHEREUM_WALLET', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
  },
  BASE_WALLET: {
    currency: 'USDC',
    info: { accountType: 'BASE_WALLET', address: '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359' },
  },
  POLYGON_WALLET: {
    currency: 'USDC',
    info: { accountType: 'POLYGON_WALLET', address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB' },
  },
  PLASMA_WALLET: {
    currency: 'USDT',
    info: { accountType: 'PLASMA_WALLET', address: '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb' },
  },
  SOLANA_WALLET: {
    currency: 'USDC',
    info: { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
  },
  TRON_WALLET: {
    currency: 'USDT',
    info: { accountType: 'TRON_WALLET', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' },
  },
  SPARK_WALLET: {
    currency: 'BTC',
    info: {
      accountType: 'SPARK_WALLET',
      address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    },
  },
  LIGHTNING: { currency: 'BTC', info: { accountType: 'LIGHTNING', lightningAddress: 'alice@example.com' } },
} as const;

/** BOLT 11 test vector (payment of any amount, lnbc). */
export const BOLT11_INVOICE =
  'lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqf'
  + 'qqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2u'
  + 'eh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql';

export function externalAccountBody(variant: keyof typeof ACCOUNT_INFO, extra: Record<string, unknown> = {}) {
  const { currency, info } = ACCOUNT_INFO[variant];
  return { currency, accountInfo: structuredClone(info) as Record<string, unknown>, ...extra };
}

/** A REST external-account body as its CreateExternalAccountRequest (repeated members filled in as on the wire). */
export const externalAccountRequest = (body: object) =>
  CreateExternalAccountRequest.fromPartial(body as CreateExternalAccountRequest);

/** A REST body as its request message: every list (a `*List` message on the wire) wrapped with its presence. */
function withListMessages(value: unknown): unknown {
  if (Array.isArray(value)) return { values: value.map(withListMessages) };
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withListMessages(v)]));
}

export const customerFieldsOf = (body: object) => withListMessages(body) as CustomerFields;
export const configChangesOf = (body: object) => withListMessages(body) as PlatformConfigChanges;
