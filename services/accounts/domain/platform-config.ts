import { currencyInfo } from './currencies';

import { CUSTOMER_INFO_FIELD_NAMES, FEE_TYPES, TRANSACTION_TYPES } from '../../../lib/contract/payment-vocabulary';

/** CustomerInfoFieldName: data about a counterparty customer a platform may require. */
export const COUNTERPARTY_FIELD_NAMES = CUSTOMER_INFO_FIELD_NAMES;
export { FEE_TYPES, TRANSACTION_TYPES };
/** Platform fees exist for USD sources only; other sources are NOT_IMPLEMENTED. */
export const FEE_SOURCE_CURRENCIES = ['USD'] as const;

export interface PlatformCurrencyConfig {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  requiredCounterpartyFields: Array<{ name: string; mandatory: boolean }>;
  enabledTransactionTypes: string[];
}

export interface EmbeddedWalletConfig {
  appName?: string;
  otpLength?: number;
  alphanumeric?: boolean;
  expirationSeconds?: number;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  logoUrl?: string;
}

export interface CardTokenization2faConfig {
  displayName?: string;
  logoUrl?: string;
  email?: { fromAddress?: string; fromName?: string; replyToAddress?: string; subject?: string; bodyText?: string };
  sms?: { templateSid?: string; bodyText?: string };
}

export interface FeeConfig {
  feeType: string;
  sourceCurrency: string;
  variableFeeBps: number;
  fixedFee: { amount: number; currency: string };
}

/** Limits on sending in `currency`, towards any currency or only `receivingCurrency` (a corridor). */
export interface TransactionLimit {
  currency: string;
  receivingCurrency?: string;
  maxSingleTransaction?: number;
  dailyVolume?: number;
}

/** The platform's configuration beyond its name and UMA domain (stored on the platform). */
export interface PlatformSettings {
  webhookEndpoint?: string;
  currencyConfigs: PlatformCurrencyConfig[];
  isRegulatedFinancialInstitution: boolean;
  /** Present once the platform configured embedded-wallet support. */
  embeddedWalletConfig?: EmbeddedWalletConfig;
  cardTokenization2faConfig?: CardTokenization2faConfig;
  feeConfigs: FeeConfig[];
  limits: TransactionLimit[];
  /** Webhook types beyond the reference's that the platform opted into (our extension). */
  webhookExtensionTypes?: string[];
}

/** A validated PATCH /config: members absent stay unchanged. */
export interface PlatformConfigChanges {
  umaDomain?: string;
  webhookEndpoint?: string;
  currencyConfigs?: PlatformCurrencyConfig[];
  embeddedWalletConfig?: EmbeddedWalletConfig;
  cardTokenization2faConfig?: CardTokenization2faConfig;
  feeConfigs?: FeeConfig[];
  limits?: TransactionLimit[];
  webhookExtensionTypes?: string[];
}

/** Until configured: from 1 minor unit up to one million whole units, both directions. */
export function defaultCurrencyConfig(code: string): PlatformCurrencyConfig {
  return {
    currencyCode: code,
    minAmount: 1,
    maxAmount: 10 ** (currencyInfo(code).decimals + 6),
    requiredCounterpartyFields: [],
    enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
  };
}

export function defaultSettings(currencies: readonly string[]): PlatformSettings {
  return {
    currencyConfigs: currencies.map(defaultCurrencyConfig),
    isRegulatedFinancialInstitution: false,
    feeConfigs: [],
    limits: [],
  };
}

/** What a platform created with embedded wallets on starts with; PATCH /config changes any member. */
export function defaultEmbeddedWalletConfig(platformName: string): EmbeddedWalletConfig {
  return { appName: platformName, otpLength: 6, alphanumeric: false, expirationSeconds: 300 };
}

const feeKey = (f: FeeConfig) => `${f.feeType}|${f.sourceCurrency}`;
const limitKey = (l: TransactionLimit) => `${l.currency}|${l.receivingCurrency ?? ''}`;

/** Replaces entries by key and appends new ones; `drop` entries are removed instead. */
function mergeByKey<T>(current: T[], changes: T[], key: (item: T) => string, drop: (item: T) => boolean): T[] {
  const byKey = new Map(current.map((item) => [key(item), item]));
  for (const item of changes) {
    if (drop(item)) byKey.delete(key(item));
    else byKey.set(key(item), item);
  }
  return [...byKey.values()];
}

/**
 * The settings after a PATCH: fee configs merge by (feeType, sourceCurrency) and a config with
 * both fees 0 is deactivated; limits merge by (currency, receivingCurrency) and an entry with no
 * limit removes that key; nested config objects merge member by member; lists replace.
 */
export function applyConfigChanges(current: PlatformSettings, changes: PlatformConfigChanges): PlatformSettings {
  const next: PlatformSettings = { ...current };
  if (changes.webhookEndpoint !== undefined) next.webhookEndpoint = changes.webhookEndpoint;
  if (changes.currencyConfigs) next.currencyConfigs = changes.currencyConfigs;
  if (changes.webhookExtensionTypes) next.webhookExtensionTypes = changes.webhookExtensionTypes;
  if (changes.embeddedWalletConfig) {
    next.embeddedWalletConfig = { ...current.embeddedWalletConfig, ...changes.embeddedWalletConfig };
  }
  if (changes.cardTokenization2faConfig) {
    const was = current.cardTokenization2faConfig ?? {};
    const now = changes.cardTokenization2faConfig;
    next.cardTokenization2faConfig = {
      ...was,
      ...now,
      ...(was.email || now.email ? { email: { ...was.email, ...now.email } } : {}),
      ...(was.sms || now.sms ? { sms: { ...was.sms, ...now.sms } } : {}),
    };
  }
  if (changes.feeConfigs) {
    next.feeConfigs = mergeByKey(
      current.feeConfigs,
      changes.feeConfigs,
      feeKey,
      (f) => f.variableFeeBps === 0 && f.fixedFee.amount === 0,
    );
  }
  if (changes.limits) {
    next.limits = mergeByKey(
      current.limits,
      changes.limits,
      limitKey,
      (l) => l.maxSingleTransaction === undefined && l.dailyVolume === undefined,
    );
  }
  return next;
}

/** The names of the members a PATCH changes, for the event. */
export function changedConfigFields(changes: PlatformConfigChanges): string[] {
  const rename: Record<string, string> = { currencyConfigs: 'supportedCurrencies' };
  return Object.keys(changes).filter((k) => changes[k as keyof PlatformConfigChanges] !== undefined).map((k) =>
    rename[k] ?? k
  );
}
