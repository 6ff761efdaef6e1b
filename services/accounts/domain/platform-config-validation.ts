import { EXTENSION_WEBHOOK_TYPES } from '../../../lib/contract/webhook-types';
import { AppError } from '../../../lib/errors';
import { CURRENCY_CODES } from './currencies';
import { defined } from './customer-fields';
import { FieldReader, isJsonObject, type JsonObject } from './field-reader';
import { readCardTokenization2faConfig, readEmbeddedWalletConfig } from './messaging-config-fields';
import {
  COUNTERPARTY_FIELD_NAMES, FEE_SOURCE_CURRENCIES, FEE_TYPES, TRANSACTION_TYPES,
  type FeeConfig, type PlatformConfigChanges, type PlatformCurrencyConfig, type TransactionLimit,
} from './platform-config';

const DOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Webhooks go over https; plain http only to this machine (local receivers in the sandbox). */
function checkWebhookEndpoint(value: string): string | undefined {
  const url = new URL(value);
  return url.protocol === 'https:' || LOOPBACK.has(url.hostname) ? undefined : 'must use https (http only for localhost)';
}

/** Flags a second item with the same key as `field[i]`. */
function uniqueBy<T>(r: FieldReader, items: T[] | undefined, field: string, key: (item: T) => string): T[] | undefined {
  if (!items) return undefined;
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(key(item))) r.fail(`${field}[${i}]`, 'repeats an earlier entry of the same key');
    seen.add(key(item));
  });
  return items;
}

function readCurrencyConfig(r: FieldReader, value: unknown, field: string): PlatformCurrencyConfig | undefined {
  if (!isJsonObject(value)) return void r.fail(field, 'must be an object');
  const before = r.errors.length;
  const minAmount = r.integer(value, 'minAmount', `${field}.minAmount`, { min: 0, required: true });
  const maxAmount = r.integer(value, 'maxAmount', `${field}.maxAmount`, { min: 0, required: true });
  if (minAmount !== undefined && maxAmount !== undefined && maxAmount < minAmount) r.fail(`${field}.maxAmount`, 'must not be less than minAmount');
  const config = {
    currencyCode: r.enumValue(value, 'currencyCode', `${field}.currencyCode`, CURRENCY_CODES, true),
    minAmount,
    maxAmount,
    requiredCounterpartyFields: r.array(value, 'requiredCounterpartyFields', `${field}.requiredCounterpartyFields`, (item, f) => {
      if (!isJsonObject(item)) return void r.fail(f, 'must be an object');
      const name = r.enumValue(item, 'name', `${f}.name`, COUNTERPARTY_FIELD_NAMES, true);
      const mandatory = r.boolean(item, 'mandatory', `${f}.mandatory`, true);
      return name !== undefined && mandatory !== undefined ? { name, mandatory } : undefined;
    }),
    enabledTransactionTypes: r.enumArray(value, 'enabledTransactionTypes', `${field}.enabledTransactionTypes`, TRANSACTION_TYPES),
  };
  if (value.requiredCounterpartyFields === undefined) r.fail(`${field}.requiredCounterpartyFields`, 'is required');
  if (value.enabledTransactionTypes === undefined) r.fail(`${field}.enabledTransactionTypes`, 'is required', { enum: [...TRANSACTION_TYPES] });
  return r.errors.length === before ? (config as PlatformCurrencyConfig) : undefined;
}

function readFeeConfig(r: FieldReader, value: unknown, field: string): FeeConfig | undefined {
  if (!isJsonObject(value)) return void r.fail(field, 'must be an object');
  const before = r.errors.length;
  const sourceCurrency = r.enumValue(value, 'sourceCurrency', `${field}.sourceCurrency`, CURRENCY_CODES, true);
  const fixed = r.object(value, 'fixedFee', `${field}.fixedFee`, true);
  const config = {
    feeType: r.enumValue(value, 'feeType', `${field}.feeType`, FEE_TYPES, true),
    sourceCurrency,
    variableFeeBps: r.integer(value, 'variableFeeBps', `${field}.variableFeeBps`, { min: 0, max: 10000, required: true }),
    fixedFee: fixed && {
      amount: r.integer(fixed, 'amount', `${field}.fixedFee.amount`, { min: 0, required: true }),
      currency: r.string(fixed, 'currency', `${field}.fixedFee.currency`, {
        required: true, check: (c) => (sourceCurrency && c !== sourceCurrency ? 'must equal sourceCurrency' : undefined),
      }),
    },
  };
  return r.errors.length === before ? (config as FeeConfig) : undefined;
}

function readLimit(r: FieldReader, value: unknown, field: string): TransactionLimit | undefined {
  if (!isJsonObject(value)) return void r.fail(field, 'must be an object');
  const before = r.errors.length;
  const limit = defined({
    currency: r.enumValue(value, 'currency', `${field}.currency`, CURRENCY_CODES, true),
    receivingCurrency: r.enumValue(value, 'receivingCurrency', `${field}.receivingCurrency`, CURRENCY_CODES),
    maxSingleTransaction: r.integer(value, 'maxSingleTransaction', `${field}.maxSingleTransaction`, { min: 1 }),
    dailyVolume: r.integer(value, 'dailyVolume', `${field}.dailyVolume`, { min: 1 }),
  });
  return r.errors.length === before ? (limit as TransactionLimit) : undefined;
}

/**
 * A PATCH /config body (REST PlatformConfigUpdateRequest plus `limits`). Every invalid member is
 * reported at once (INVALID_INPUT); a valid fee config of a non-USD source is NOT_IMPLEMENTED.
 * Read-only members (id, timestamps, isRegulatedFinancialInstitution...) are ignored.
 */
export function validatePlatformConfigUpdate(body: unknown): PlatformConfigChanges {
  if (!isJsonObject(body)) throw AppError.invalidInput('Request body must be a JSON object');
  const obj: JsonObject = body;
  const r = new FieldReader();
  const umaDomain = r.string(obj, 'umaDomain', 'umaDomain', { pattern: DOMAIN });
  const webhookEndpoint = r.string(obj, 'webhookEndpoint', 'webhookEndpoint', { maxLength: 2048, format: 'url', check: checkWebhookEndpoint });
  const currencyConfigs = r.array(obj, 'supportedCurrencies', 'supportedCurrencies', (v, f) => readCurrencyConfig(r, v, f));
  if (currencyConfigs?.length === 0) r.fail('supportedCurrencies', 'must list at least one currency');
  const embeddedWalletConfig = readEmbeddedWalletConfig(r, obj);
  const cardTokenization2faConfig = readCardTokenization2faConfig(r, obj);
  const feeConfigs = r.array(obj, 'feeConfigs', 'feeConfigs', (v, f) => readFeeConfig(r, v, f));
  const limits = r.array(obj, 'limits', 'limits', (v, f) => readLimit(r, v, f));
  const webhookExtensionTypes = r.array(obj, 'webhookExtensionTypes', 'webhookExtensionTypes', (v, f) => r.enumItem(v, f, EXTENSION_WEBHOOK_TYPES));
  const changes = defined({
    umaDomain,
    webhookEndpoint,
    currencyConfigs: uniqueBy(r, currencyConfigs, 'supportedCurrencies', (c) => c.currencyCode),
    embeddedWalletConfig,
    cardTokenization2faConfig,
    feeConfigs: uniqueBy(r, feeConfigs, 'feeConfigs', (f) => `${f.feeType}|${f.sourceCurrency}`),
    limits: uniqueBy(r, limits, 'limits', (l) => `${l.currency}|${l.receivingCurrency ?? ''}`),
    webhookExtensionTypes: webhookExtensionTypes && [...new Set(webhookExtensionTypes)],
  });
  r.throwIfInvalid('Invalid platform configuration');
  const unsupported = changes.feeConfigs?.find((f) => !(FEE_SOURCE_CURRENCIES as readonly string[]).includes(f.sourceCurrency));
  if (unsupported) {
    throw new AppError('NOT_IMPLEMENTED', `Platform fees are supported for USD sources only, not ${unsupported.sourceCurrency}`, { field: 'feeConfigs', sourceCurrency: unsupported.sourceCurrency });
  }
  return changes;
}
