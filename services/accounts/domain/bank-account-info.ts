import { readBeneficiary } from './beneficiary-fields';
import {
  checkAbaRoutingNumber, checkBic, checkBrazilianTaxId, checkClabe, checkIban, checkPixKey, PIX_KEY_TYPES,
} from './bank-identifiers';
import { defined } from './customer-fields';
import type { FieldReader, JsonObject } from './field-reader';

/** Reads one bank `accountInfo` variant; returns the validated info (known members only). */
export type AccountInfoReader = (r: FieldReader, info: JsonObject) => JsonObject;

const f = (key: string) => `accountInfo.${key}`;
const DIGITS_9 = /^[0-9]{9}$/;
const BANK_NAME = { minLength: 1, maxLength: 140 };

const readUsd: AccountInfoReader = (r, info) => defined({
  accountType: 'USD_ACCOUNT',
  accountNumber: r.string(info, 'accountNumber', f('accountNumber'), { minLength: 1, maxLength: 34, pattern: /^[0-9]+$/, required: true }),
  routingNumber: r.string(info, 'routingNumber', f('routingNumber'), { minLength: 9, maxLength: 9, pattern: DIGITS_9, check: checkAbaRoutingNumber, required: true }),
  bankName: r.string(info, 'bankName', f('bankName'), BANK_NAME),
  bankAccountType: r.enumValue(info, 'bankAccountType', f('bankAccountType'), ['CHECKING', 'SAVINGS']),
  intermediaryBankName: r.string(info, 'intermediaryBankName', f('intermediaryBankName'), BANK_NAME),
  intermediaryRoutingNumber: r.string(info, 'intermediaryRoutingNumber', f('intermediaryRoutingNumber'), { minLength: 9, maxLength: 9, pattern: DIGITS_9, check: checkAbaRoutingNumber }),
  fiToFiInformation: r.string(info, 'fiToFiInformation', f('fiToFiInformation'), { maxLength: 210 }),
  beneficiary: readBeneficiary(r, info, { required: true }),
});

const readMxn: AccountInfoReader = (r, info) => defined({
  accountType: 'MXN_ACCOUNT',
  clabeNumber: r.string(info, 'clabeNumber', f('clabeNumber'), { minLength: 18, maxLength: 18, pattern: /^[0-9]{18}$/, check: checkClabe, required: true }),
  beneficiary: readBeneficiary(r, info, { required: true }),
});

const readEur: AccountInfoReader = (r, info) => defined({
  accountType: 'EUR_ACCOUNT',
  iban: r.string(info, 'iban', f('iban'), { minLength: 15, maxLength: 34, pattern: /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/, check: checkIban, required: true }),
  swiftCode: r.string(info, 'swiftCode', f('swiftCode'), { minLength: 8, maxLength: 11, pattern: /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, check: checkBic }),
  beneficiary: readBeneficiary(r, info, { required: true, countryOfResidenceRequired: true }),
});

const readBrl: AccountInfoReader = (r, info) => {
  const pixKeyType = r.enumValue(info, 'pixKeyType', f('pixKeyType'), PIX_KEY_TYPES, true);
  return defined({
    accountType: 'BRL_ACCOUNT',
    pixKey: r.string(info, 'pixKey', f('pixKey'), {
      minLength: 1, maxLength: 77, required: true, check: (v) => (pixKeyType ? checkPixKey(pixKeyType, v) : undefined),
    }),
    pixKeyType,
    taxId: r.string(info, 'taxId', f('taxId'), { minLength: 11, maxLength: 14, pattern: /^[0-9]{11,14}$/, check: checkBrazilianTaxId, required: true }),
    beneficiary: readBeneficiary(r, info, { required: true }),
  });
};

/** INR: a UPI id (`vpa`), or a bank account number with the branch IFSC (NEFT/RTGS). */
const readInr: AccountInfoReader = (r, info) => {
  const byUpi = info.vpa !== undefined;
  return defined({
    accountType: 'INR_ACCOUNT',
    vpa: r.string(info, 'vpa', f('vpa'), { minLength: 3, maxLength: 255, pattern: /^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/ }),
    accountNumber: r.string(info, 'accountNumber', f('accountNumber'), { minLength: 9, maxLength: 18, pattern: /^[0-9]{9,18}$/, required: !byUpi }),
    ifsc: r.string(info, 'ifsc', f('ifsc'), { minLength: 11, maxLength: 11, pattern: /^[A-Z]{4}0[A-Z0-9]{6}$/, required: !byUpi }),
    rail: r.string(info, 'rail', f('rail'), { minLength: 1, maxLength: 32 }),
    bankName: r.string(info, 'bankName', f('bankName'), { minLength: 1, maxLength: 255 }),
    beneficiary: readBeneficiary(r, info, { required: true }),
  });
};

/** Bank account variants by `accountType`, with the currency each holds. */
/** Each bank variant with its currency and the payment rails the reference lists for it. */
export const BANK_ACCOUNT_TYPES: Record<string, { currency: string; read: AccountInfoReader; paymentRails: readonly string[] }> = {
  USD_ACCOUNT: { currency: 'USD', read: readUsd, paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] },
  MXN_ACCOUNT: { currency: 'MXN', read: readMxn, paymentRails: ['SPEI'] },
  EUR_ACCOUNT: { currency: 'EUR', read: readEur, paymentRails: ['SEPA', 'SEPA_INSTANT'] },
  BRL_ACCOUNT: { currency: 'BRL', read: readBrl, paymentRails: ['PIX'] },
  INR_ACCOUNT: { currency: 'INR', read: readInr, paymentRails: ['UPI', 'NEFT', 'RTGS'] },
};

/** The rails an account reaches by default: every rail of its variant (INR: UPI by `vpa`, else NEFT and RTGS). */
export function defaultPaymentRails(accountInfo: JsonObject): string[] | undefined {
  const variant = BANK_ACCOUNT_TYPES[String(accountInfo.accountType)];
  if (!variant) return undefined;
  if (accountInfo.accountType === 'INR_ACCOUNT') return accountInfo.vpa !== undefined ? ['UPI'] : ['NEFT', 'RTGS'];
  return [...variant.paymentRails];
}

/**
 * `accountInfo.paymentRails` of a bank account: the rails asked for (distinct, each one of its
 * variant's), or, when none are listed, the defaults. Accounts stored before rails existed read
 * with the defaults.
 */
export function readPaymentRails(r: FieldReader, info: JsonObject, accountType: string): string[] | undefined {
  const variant = BANK_ACCOUNT_TYPES[accountType];
  if (!variant) return undefined;
  const asked = r.enumArray(info, 'paymentRails', 'accountInfo.paymentRails', variant.paymentRails);
  return asked?.length ? [...new Set(asked)] : defaultPaymentRails(info);
}

export function withPaymentRails(accountInfo: JsonObject): JsonObject {
  if (accountInfo.paymentRails !== undefined) return accountInfo;
  const rails = defaultPaymentRails(accountInfo);
  return rails ? { ...accountInfo, paymentRails: rails } : accountInfo;
}
