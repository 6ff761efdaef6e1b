import { EXTERNAL_ACCOUNT_TYPE_NAMES, EXTERNAL_ACCOUNT_TYPES } from './external-account-types';

/** The closed value sets of payments, as the REST interface spells them (the contract and the services read these). */
export const PAYMENT_RAILS = [
  'ACH',
  'ACH_COLOMBIA',
  'BANK_TRANSFER',
  'BRE_B',
  'CIPS',
  'FAST',
  'FASTER_PAYMENTS',
  'FEDNOW',
  'INSTAPAY',
  'MOBILE_MONEY',
  'NEFT',
  'PAYNOW',
  'PESONET',
  'PIX',
  'RTGS',
  'RTP',
  'SEPA',
  'SEPA_INSTANT',
  'SPEI',
  'SWIFT',
  'UNIONPAY',
  'UPI',
  'WIRE',
] as const;

export const PURPOSES_OF_PAYMENT = [
  'GIFT',
  'SELF',
  'GOODS_OR_SERVICES',
  'EDUCATION',
  'HEALTH_OR_MEDICAL',
  'REAL_ESTATE_PURCHASE',
  'TAX_PAYMENT',
  'LOAN_PAYMENT',
  'UTILITY_BILL',
  'DONATION',
  'TRAVEL',
  'FAMILY_SUPPORT',
  'SALARY_PAYMENT',
  'OTHER',
] as const;

/** CustomerInfoFieldName: data about a counterparty a platform or a receiver may require, in the interface's order. */
export const CUSTOMER_INFO_FIELD_NAMES = [
  'FULL_NAME',
  'BIRTH_DATE',
  'NATIONALITY',
  'PHONE_NUMBER',
  'EMAIL',
  'POSTAL_ADDRESS',
  'TAX_ID',
  'REGISTRATION_NUMBER',
  'USER_TYPE',
  'COUNTRY_OF_RESIDENCE',
  'ACCOUNT_IDENTIFIER',
  'FI_LEGAL_ENTITY_NAME',
  'FI_ADDRESS',
  'PURPOSE_OF_PAYMENT',
  'ULTIMATE_INSTITUTION_COUNTRY',
  'IDENTIFIER',
  'BUSINESS_TYPE',
  'COMPANY_LEGAL_NAME',
  'ID_TYPE',
  'ID_NUMBER',
] as const;

/** Transaction directions a platform enables per currency. */
export const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING'] as const;
export const FEE_TYPES = ['CROSS_CURRENCY_TRANSACTION'] as const;

export const PENDING_REASONS = [
  'COUNTERPARTY_DECLARATION_REQUIRED',
  'WALLET_VERIFICATION_REQUIRED',
  'COUNTERPARTY_INFORMATION_REQUIRED',
  'COMPLIANCE_REVIEW',
] as const;

/** Every transaction status the reference lists. */
export const TRANSACTION_STATUSES = [
  'CREATED',
  'PENDING',
  'PENDING_AUTHORIZATION',
  'PROCESSING',
  'COMPLETED',
  'REJECTED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
] as const;

/** On-chain wallets (every WALLET type but Lightning), derived from the external account table. */
export const ON_CHAIN_WALLET_TYPES: readonly string[] = EXTERNAL_ACCOUNT_TYPE_NAMES.filter((t) =>
  EXTERNAL_ACCOUNT_TYPES[t].kind === 'WALLET' && t !== 'LIGHTNING'
);
