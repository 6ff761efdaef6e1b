/**
 * Every kind of external account, once: for each `accountInfo.accountType` its currency, the
 * payment rails it is reached by, its members with their formats, the members each rail needs, and
 * who the beneficiary is. The gateway's contract (TypeBox schemas, hence the OpenAPI document and
 * the check at the edge), the REST → proto mapping and the accounts domain's rules all derive from
 * this table; nothing else lists account types or their members. From Grid's reference
 * (`ExternalAccountType`, the `*ExternalAccountCreateInfo` and `*AccountInfo` schemas).
 */

/** A domain rule beyond the format, named here and implemented by the accounts domain. */
export type MemberCheck =
  | 'iban'
  | 'bic'
  | 'abaRouting'
  | 'clabe'
  | 'brazilianTaxId'
  | 'pixKey'
  | 'walletAddress'
  | 'bolt11'
  | 'bolt12';

export interface MemberSpec {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  /** JSON Schema (ECMA-262) pattern. */
  pattern?: string;
  enum?: readonly string[];
  check?: MemberCheck;
  description?: string;
}

export interface AccountTypeSpec {
  kind: 'BANK' | 'WALLET';
  /** The currencies an account of this type holds (the first is its own). */
  currencies: readonly string[];
  /** Bank accounts: the rails the reference lists for the type. Wallets have none. */
  rails: readonly string[];
  members: Readonly<Record<string, MemberSpec>>;
  /** Members a rail needs besides the always-required ones (the reference's per-rail requirements). */
  railMembers?: Readonly<Record<string, readonly string[]>>;
  /** Bank accounts: the beneficiary is required; an individual must also give these members. */
  beneficiary?: { individualRequires: readonly string[]; businessOnlyOnRails?: readonly string[] };
  /** Exactly one of these members (LIGHTNING), or at least one (SWIFT_ACCOUNT). */
  exactlyOneOf?: readonly string[];
  atLeastOneOf?: readonly string[];
}

const SWIFT = '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$';
const PHONE = '^\\+[0-9]{6,14}$';

const text = (maxLength = 255, required = false): MemberSpec => ({
  minLength: 1,
  maxLength,
  ...(required ? { required } : {}),
});
const digits = (min: number, max: number, required = false): MemberSpec => ({
  minLength: min,
  maxLength: max,
  pattern: min === max ? `^[0-9]{${min}}$` : `^[0-9]{${min},${max}}$`,
  ...(required ? { required } : {}),
});
const swiftCode = (required = false): MemberSpec => ({
  minLength: 8,
  maxLength: 11,
  pattern: SWIFT,
  check: 'bic',
  ...(required ? { required } : {}),
});
const phone = (required = false, pattern = PHONE): MemberSpec => ({
  minLength: 7,
  maxLength: 15,
  pattern,
  ...(required ? { required } : {}),
});
const iban = (length: [number, number], pattern: string, required = false): MemberSpec => ({
  minLength: length[0],
  maxLength: length[1],
  pattern,
  check: 'iban',
  ...(required ? { required } : {}),
});
const BANK_ACCOUNT_TYPE: MemberSpec = { enum: ['CHECKING', 'SAVINGS'] };

const bank = (
  currency: string,
  rails: readonly string[],
  members: Record<string, MemberSpec>,
  more: Partial<AccountTypeSpec> = {},
): AccountTypeSpec => ({
  kind: 'BANK',
  currencies: [currency],
  rails,
  members,
  beneficiary: { individualRequires: [] },
  ...more,
});

/** Mobile money: a phone number and the provider (M-Pesa, MTN, Airtel...). */
const mobileMoney = (currency: string, phonePattern = PHONE, more: Record<string, MemberSpec> = {}) =>
  bank(currency, ['MOBILE_MONEY'], { phoneNumber: phone(true, phonePattern), provider: text(255, true), ...more });

/** Bank account by name, number and SWIFT/BIC code. */
const swiftBank = (currency: string, rails: readonly string[], bankNameRequired = true) =>
  bank(currency, rails, {
    bankName: text(255, bankNameRequired),
    accountNumber: text(34, true),
    swiftCode: swiftCode(true),
  });

/** A bank-transfer-or-mobile-money type: the members each rail requires, and any other part of its spec. */
interface BankOrMobileSpec {
  currency: string;
  members: Record<string, MemberSpec>;
  bankTransfer: readonly string[];
  mobileMoney: readonly string[];
  more?: Partial<AccountTypeSpec>;
}

/** Bank transfer or mobile money: which members are required depends on the rail. */
const bankOrMobile = ({ currency, members, bankTransfer, mobileMoney, more = {} }: BankOrMobileSpec) =>
  bank(currency, ['BANK_TRANSFER', 'MOBILE_MONEY'], members, {
    railMembers: { BANK_TRANSFER: bankTransfer, MOBILE_MONEY: mobileMoney },
    ...more,
  });

const STABLECOINS = ['USDC', 'USDT'];
const wallet = (currencies: readonly string[]): AccountTypeSpec => ({
  kind: 'WALLET',
  currencies,
  rails: [],
  members: { address: { required: true, minLength: 1, maxLength: 128, check: 'walletAddress' } },
});

export const EXTERNAL_ACCOUNT_TYPES = {
  AED_ACCOUNT: bank('AED', ['BANK_TRANSFER'], { iban: iban([23, 23], '^AE[0-9]{21}$', true), swiftCode: swiftCode() }, {
    beneficiary: { individualRequires: ['address'] },
  }),
  BDT_ACCOUNT: bankOrMobile({
    currency: 'BDT',
    members: {
      accountNumber: text(34),
      bankName: text(255, true),
      branchCode: digits(5, 5),
      swiftCode: swiftCode(),
      phoneNumber: phone(),
    },
    bankTransfer: ['accountNumber'],
    mobileMoney: ['phoneNumber'],
  }),
  BRL_ACCOUNT: bank('BRL', ['PIX'], {
    pixKey: { required: true, minLength: 1, maxLength: 77, check: 'pixKey' },
    pixKeyType: { required: true, enum: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] },
    taxId: { ...digits(11, 14, true), check: 'brazilianTaxId' },
  }),
  BWP_ACCOUNT: mobileMoney('BWP'),
  CAD_ACCOUNT: bank('CAD', ['BANK_TRANSFER'], {
    bankCode: { ...digits(3, 3, true), description: 'Canadian financial institution number' },
    branchCode: { ...digits(5, 5, true), description: 'Transit (branch) number' },
    accountNumber: digits(7, 12, true),
  }),
  CNY_ACCOUNT: bankOrMobile({
    currency: 'CNY',
    members: { accountNumber: text(34), bankName: text(255, true), phoneNumber: phone() },
    bankTransfer: ['accountNumber'],
    mobileMoney: ['phoneNumber'],
    more: {
      beneficiary: { individualRequires: [], businessOnlyOnRails: ['BANK_TRANSFER'] },
    },
  }),
  COP_ACCOUNT: bankOrMobile({
    currency: 'COP',
    members: {
      accountNumber: text(34),
      bankAccountType: BANK_ACCOUNT_TYPE,
      bankName: text(255, true),
      phoneNumber: phone(),
    },
    bankTransfer: ['accountNumber', 'bankAccountType'],
    mobileMoney: ['phoneNumber'],
  }),
  DKK_ACCOUNT: bank('DKK', ['SEPA', 'SEPA_INSTANT'], {
    iban: iban([18, 18], '^DK[0-9]{16}$', true),
    swiftCode: swiftCode(),
  }),
  EGP_ACCOUNT: bankOrMobile({
    currency: 'EGP',
    members: { iban: iban([29, 29], '^EG[0-9]{27}$'), bankName: text(255, true), phoneNumber: phone() },
    bankTransfer: ['iban'],
    mobileMoney: ['phoneNumber'],
  }),
  EUR_ACCOUNT: bank('EUR', ['SEPA', 'SEPA_INSTANT'], {
    iban: iban([15, 34], '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$', true),
    swiftCode: swiftCode(),
  }, { beneficiary: { individualRequires: ['countryOfResidence'] } }),
  GBP_ACCOUNT: bank('GBP', ['FASTER_PAYMENTS'], { sortCode: digits(6, 6, true), accountNumber: digits(8, 8, true) }),
  GHS_ACCOUNT: bankOrMobile({
    currency: 'GHS',
    members: { accountNumber: text(34), bankName: text(255, true), phoneNumber: phone() },
    bankTransfer: ['accountNumber'],
    mobileMoney: ['phoneNumber'],
  }),
  GTQ_ACCOUNT: bank('GTQ', ['BANK_TRANSFER'], {
    accountNumber: text(34, true),
    bankAccountType: { ...BANK_ACCOUNT_TYPE, required: true },
    bankName: text(255, true),
  }, {
    beneficiary: { individualRequires: ['countryOfResidence', 'phoneNumber'] },
  }),
  HKD_ACCOUNT: swiftBank('HKD', ['BANK_TRANSFER']),
  HTG_ACCOUNT: bank('HTG', ['MOBILE_MONEY'], { phoneNumber: phone(true) }),
  IDR_ACCOUNT: bank('IDR', ['BANK_TRANSFER'], {
    bankName: text(255, true),
    accountNumber: text(34, true),
    swiftCode: swiftCode(true),
    phoneNumber: phone(true, '^\\+62[0-9]{9,12}$'),
  }),
  INR_ACCOUNT: bank('INR', ['UPI', 'NEFT', 'RTGS'], {
    vpa: { minLength: 3, maxLength: 255, pattern: '^[a-zA-Z0-9.\\-_]+@[a-zA-Z0-9]+$', description: 'UPI id' },
    accountNumber: digits(9, 18),
    ifsc: {
      minLength: 11,
      maxLength: 11,
      pattern: '^[A-Z]{4}0[A-Z0-9]{6}$',
      description: 'Indian Financial System Code of the branch',
    },
    rail: text(32),
    bankName: text(255),
  }, { railMembers: { UPI: ['vpa'], NEFT: ['accountNumber', 'ifsc'], RTGS: ['accountNumber', 'ifsc'] } }),
  JMD_ACCOUNT: bank('JMD', ['BANK_TRANSFER'], {
    accountNumber: text(34, true),
    branchCode: digits(5, 5, true),
    bankAccountType: { ...BANK_ACCOUNT_TYPE, required: true },
    bankName: text(255, true),
  }, { beneficiary: { individualRequires: ['address', 'phoneNumber'] } }),
  KES_ACCOUNT: mobileMoney('KES', '^\\+254[0-9]{9}$'),
  MWK_ACCOUNT: mobileMoney('MWK'),
  MXN_ACCOUNT: bank('MXN', ['SPEI'], { clabeNumber: { ...digits(18, 18, true), check: 'clabe' } }),
  MYR_ACCOUNT: swiftBank('MYR', ['BANK_TRANSFER']),
  NGN_ACCOUNT: bank('NGN', ['BANK_TRANSFER'], { accountNumber: digits(10, 10, true), bankName: text(255, true) }),
  PHP_ACCOUNT: bank('PHP', ['BANK_TRANSFER'], { bankName: text(255, true), accountNumber: digits(8, 16, true) }),
  PKR_ACCOUNT: bankOrMobile({
    currency: 'PKR',
    members: {
      bankName: text(255, true),
      accountNumber: text(34),
      iban: iban([24, 24], '^PK[0-9]{2}[A-Z]{4}[0-9]{16}$'),
      phoneNumber: phone(),
    },
    bankTransfer: ['accountNumber'],
    mobileMoney: ['phoneNumber'],
  }),
  RWF_ACCOUNT: mobileMoney('RWF', '^\\+250[0-9]{9}$'),
  SGD_ACCOUNT: bank('SGD', ['PAYNOW', 'FAST', 'BANK_TRANSFER'], {
    bankName: text(255),
    accountNumber: text(34, true),
    swiftCode: swiftCode(true),
  }),
  // El Salvador's currency is the US dollar.
  SLV_ACCOUNT: bankOrMobile({
    currency: 'USD',
    members: { bankName: text(255), accountNumber: text(34), bankAccountType: BANK_ACCOUNT_TYPE, phoneNumber: phone() },
    bankTransfer: ['accountNumber', 'bankAccountType'],
    mobileMoney: ['phoneNumber'],
  }),
  THB_ACCOUNT: swiftBank('THB', ['BANK_TRANSFER']),
  TZS_ACCOUNT: mobileMoney('TZS', '^\\+255[0-9]{9}$'),
  UGX_ACCOUNT: mobileMoney('UGX'),
  USD_ACCOUNT: bank('USD', ['ACH', 'WIRE', 'RTP', 'FEDNOW'], {
    accountNumber: { minLength: 1, maxLength: 34, pattern: '^[0-9]+$', required: true },
    routingNumber: { ...digits(9, 9, true), check: 'abaRouting', description: 'ABA routing number' },
    bankName: text(140),
    bankAccountType: BANK_ACCOUNT_TYPE,
    intermediaryBankName: text(140),
    intermediaryRoutingNumber: { ...digits(9, 9), check: 'abaRouting' },
    fiToFiInformation: { maxLength: 210 },
  }),
  VND_ACCOUNT: swiftBank('VND', ['BANK_TRANSFER']),
  XAF_ACCOUNT: mobileMoney('XAF', PHONE, {
    region: { required: true, minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$', enum: ['CM', 'CG'] },
  }),
  XOF_ACCOUNT: mobileMoney('XOF', PHONE, {
    region: { required: true, minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$', enum: ['BJ', 'CI', 'SN', 'TG'] },
  }),
  ZAR_ACCOUNT: bank('ZAR', ['BANK_TRANSFER'], { accountNumber: digits(9, 13, true), bankName: text(255, true) }),
  ZMW_ACCOUNT: mobileMoney('ZMW', '^\\+260[0-9]{9}$'),
  SWIFT_ACCOUNT: bank('USD', ['SWIFT'], {
    country: {
      required: true,
      minLength: 2,
      maxLength: 2,
      pattern: '^[A-Z]{2}$',
      description: 'ISO 3166-1 alpha-2 country of the bank',
    },
    swiftCode: swiftCode(true),
    bankName: text(255, true),
    accountNumber: text(34),
    iban: iban([15, 34], '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$'),
  }, { atLeastOneOf: ['accountNumber', 'iban'] }),
  BASE_WALLET: wallet(STABLECOINS),
  ETHEREUM_WALLET: wallet(STABLECOINS),
  LIGHTNING: {
    kind: 'WALLET',
    currencies: ['BTC'],
    rails: [],
    members: {
      invoice: { minLength: 1, maxLength: 4096, check: 'bolt11', description: 'BOLT 11 invoice' },
      bolt12: { minLength: 1, maxLength: 4096, check: 'bolt12', description: 'BOLT 12 offer' },
      lightningAddress: { maxLength: 320, pattern: '^[a-zA-Z0-9._+-]+@[a-zA-Z0-9-]+(\\.[a-zA-Z0-9-]+)+$' },
    },
    exactlyOneOf: ['invoice', 'bolt12', 'lightningAddress'],
  },
  PLASMA_WALLET: wallet(STABLECOINS),
  POLYGON_WALLET: wallet(STABLECOINS),
  SOLANA_WALLET: wallet(STABLECOINS),
  SPARK_WALLET: wallet(['BTC']),
  TRON_WALLET: wallet(STABLECOINS),
} satisfies Record<string, AccountTypeSpec>;

export type ExternalAccountType = keyof typeof EXTERNAL_ACCOUNT_TYPES;
export const EXTERNAL_ACCOUNT_TYPE_NAMES = Object.keys(EXTERNAL_ACCOUNT_TYPES) as ExternalAccountType[];

/** The spec of a type, or undefined for a name that is none. */
export function accountTypeSpec(type: string | undefined): AccountTypeSpec | undefined {
  return type !== undefined && Object.hasOwn(EXTERNAL_ACCOUNT_TYPES, type)
    ? (EXTERNAL_ACCOUNT_TYPES as Record<string, AccountTypeSpec>)[type]
    : undefined;
}

/** The currencies of the local bank accounts; a SWIFT account may hold any of them. */
export const BANK_CURRENCIES: readonly string[] = [
  ...new Set(EXTERNAL_ACCOUNT_TYPE_NAMES.flatMap((t) => {
    const spec: AccountTypeSpec = EXTERNAL_ACCOUNT_TYPES[t];
    return spec.kind === 'BANK' ? spec.currencies : [];
  })),
];

/** The currencies an account of this type may hold. */
export function accountCurrencies(type: string): readonly string[] {
  if (type === 'SWIFT_ACCOUNT') return BANK_CURRENCIES;
  return accountTypeSpec(type)?.currencies ?? [];
}

/** Every member any type has (besides accountType, paymentRails and beneficiary). */
export const ACCOUNT_INFO_MEMBERS: readonly string[] = [
  ...new Set(EXTERNAL_ACCOUNT_TYPE_NAMES.flatMap((t) => Object.keys(EXTERNAL_ACCOUNT_TYPES[t].members))),
];

export const BENEFICIARY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
