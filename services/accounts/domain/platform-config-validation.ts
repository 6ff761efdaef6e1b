import type {
  CardTokenization2faConfigFields,
  CurrencyConfigFields,
  EmbeddedWalletConfigFields,
  FeeConfigFields,
  LimitFields,
  PlatformConfigChanges as PlatformConfigChangesMessage,
} from '../../../gen/accounts/v1/platform_config_changes';
import { AppError, type FieldError } from '../../../lib/errors';
import { CURRENCY_CODES } from './currencies';
import { defined } from './customer-fields';
import {
  FEE_SOURCE_CURRENCIES,
  type CardTokenization2faConfig,
  type EmbeddedWalletConfig,
  type FeeConfig,
  type PlatformConfigChanges,
  type PlatformCurrencyConfig,
  type TransactionLimit,
} from './platform-config';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The problems found so far; each check returns its value only when valid. */
class Problems {
  readonly errors: FieldError[] = [];

  fail(field: string, message: string, constraint?: FieldError['constraint']): void {
    this.errors.push(constraint ? { field, message, constraint } : { field, message });
  }

  /** Members the contract requires: only a caller that skipped the gateway leaves them out. */
  need<T>(value: T | undefined, field: string): T | undefined {
    if (value === undefined) this.fail(field, 'is required');
    return value;
  }

  /** Amounts and rates the money rules depend on (never negative), kept here whoever the caller. */
  amount(
    value: number | undefined,
    field: string,
    rules: { min: number; max?: number; required?: boolean },
  ): number | undefined {
    if (value === undefined) return rules.required ? this.need(value, field) : undefined;
    const max = rules.max ?? Number.MAX_SAFE_INTEGER;
    if (Number.isSafeInteger(value) && value >= rules.min && value <= max) return value;
    this.fail(field, `must be an integer between ${rules.min} and ${max}`);
    return undefined;
  }

  /** A currency of the catalogue (the contract takes any string). */
  currency(code: string | undefined, field: string, required = false): string | undefined {
    if (code === undefined) return required ? this.need(code, field) : undefined;
    if ((CURRENCY_CODES as readonly string[]).includes(code)) return code;
    this.fail(field, `must be one of ${CURRENCY_CODES.join(', ')}`, { enum: [...CURRENCY_CODES] });
    return undefined;
  }

  /** Runs `check` and returns its value only when it added no problem. */
  valid<T>(check: () => T): T | undefined {
    const before = this.errors.length;
    const value = check();
    return this.errors.length === before ? value : undefined;
  }
}

/** Webhooks go over https; plain http only to this machine (local receivers in the sandbox). */
function webhookEndpointProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http or https URL';
  }
  return url.protocol === 'https:' || LOOPBACK.has(url.hostname)
    ? undefined
    : 'must use https (http only for localhost)';
}

/** Flags a second item with the same key as `field[i]`. */
function uniqueBy<T>(p: Problems, items: T[] | undefined, field: string, key: (item: T) => string): T[] | undefined {
  if (!items) return undefined;
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(key(item))) p.fail(`${field}[${i}]`, 'repeats an earlier entry of the same key');
    seen.add(key(item));
  });
  return items;
}

/** Each item through `item`; the list only when every item is valid. */
function listOf<M, T>(
  p: Problems,
  items: M[] | undefined,
  field: string,
  item: (value: M, itemField: string) => T | undefined,
): T[] | undefined {
  return items && p.valid(() => items.map((v, i) => item(v, `${field}[${i}]`)) as T[]);
}

function currencyConfig(p: Problems, c: CurrencyConfigFields, field: string): PlatformCurrencyConfig | undefined {
  return p.valid(() => {
    const minAmount = p.amount(c.minAmount, `${field}.minAmount`, { min: 0, required: true });
    const maxAmount = p.amount(c.maxAmount, `${field}.maxAmount`, { min: 0, required: true });
    if (minAmount !== undefined && maxAmount !== undefined && maxAmount < minAmount) {
      p.fail(`${field}.maxAmount`, 'must not be less than minAmount');
    }
    const required = p.need(c.requiredCounterpartyFields, `${field}.requiredCounterpartyFields`)?.values.map((
      f,
      i,
    ) => ({
      name: p.need(f.name, `${field}.requiredCounterpartyFields[${i}].name`),
      mandatory: p.need(f.mandatory, `${field}.requiredCounterpartyFields[${i}].mandatory`),
    }));
    return {
      currencyCode: p.currency(c.currencyCode, `${field}.currencyCode`, true),
      minAmount,
      maxAmount,
      requiredCounterpartyFields: required,
      enabledTransactionTypes: p.need(c.enabledTransactionTypes, `${field}.enabledTransactionTypes`)?.values,
    } as PlatformCurrencyConfig;
  });
}

function feeConfig(p: Problems, f: FeeConfigFields, field: string): FeeConfig | undefined {
  return p.valid(() => {
    const sourceCurrency = p.currency(f.sourceCurrency, `${field}.sourceCurrency`, true);
    const fixed = p.need(f.fixedFee, `${field}.fixedFee`);
    const currency = fixed && p.need(fixed.currency, `${field}.fixedFee.currency`);
    if (currency !== undefined && sourceCurrency !== undefined && currency !== sourceCurrency) {
      p.fail(`${field}.fixedFee.currency`, 'must equal sourceCurrency');
    }
    return {
      feeType: p.need(f.feeType, `${field}.feeType`),
      sourceCurrency,
      variableFeeBps: p.amount(f.variableFeeBps, `${field}.variableFeeBps`, { min: 0, max: 10000, required: true }),
      fixedFee: fixed
        && { amount: p.amount(fixed.amount, `${field}.fixedFee.amount`, { min: 0, required: true }), currency },
    } as FeeConfig;
  });
}

function limit(p: Problems, l: LimitFields, field: string): TransactionLimit | undefined {
  return p.valid(() =>
    defined({
      currency: p.currency(l.currency, `${field}.currency`, true),
      receivingCurrency: p.currency(l.receivingCurrency, `${field}.receivingCurrency`),
      maxSingleTransaction: p.amount(l.maxSingleTransaction, `${field}.maxSingleTransaction`, { min: 1 }),
      dailyVolume: p.amount(l.dailyVolume, `${field}.dailyVolume`, { min: 1 }),
    }) as TransactionLimit
  );
}

function embeddedWalletConfig(c: EmbeddedWalletConfigFields | undefined): EmbeddedWalletConfig | undefined {
  return c && defined({ ...c });
}

function cardTokenization2faConfig(
  c: CardTokenization2faConfigFields | undefined,
): CardTokenization2faConfig | undefined {
  return c && defined({ ...c, email: c.email && defined({ ...c.email }), sms: c.sms && defined({ ...c.sms }) });
}

/**
 * A PATCH /config (REST PlatformConfigUpdateRequest plus `limits`), its shape, formats and enums
 * already checked by the gateway's contract. Keeps the configuration's own rules, every broken one
 * reported at once (INVALID_INPUT): currencies of the catalogue, amounts and fee rates in range,
 * min ≤ max, a fixed fee in the source currency, no key twice, https webhooks; a valid fee of a non-USD source is
 * NOT_IMPLEMENTED.
 */
export function validatePlatformConfigUpdate(message: PlatformConfigChangesMessage): PlatformConfigChanges {
  const p = new Problems();
  const webhookEndpoint = message.webhookEndpoint;
  const webhookProblem = webhookEndpoint !== undefined ? webhookEndpointProblem(webhookEndpoint) : undefined;
  if (webhookProblem) p.fail('webhookEndpoint', webhookProblem);
  const currencyConfigs = listOf(
    p,
    message.supportedCurrencies?.values,
    'supportedCurrencies',
    (c, f) => currencyConfig(p, c, f),
  );
  if (currencyConfigs?.length === 0) p.fail('supportedCurrencies', 'must list at least one currency');
  const feeConfigs = listOf(p, message.feeConfigs?.values, 'feeConfigs', (c, f) => feeConfig(p, c, f));
  const limits = listOf(p, message.limits?.values, 'limits', (l, f) => limit(p, l, f));
  const webhookExtensionTypes = message.webhookExtensionTypes?.values;
  const changes = defined({
    umaDomain: message.umaDomain,
    webhookEndpoint: webhookProblem ? undefined : webhookEndpoint,
    currencyConfigs: uniqueBy(p, currencyConfigs, 'supportedCurrencies', (c) => c.currencyCode),
    embeddedWalletConfig: embeddedWalletConfig(message.embeddedWalletConfig),
    cardTokenization2faConfig: cardTokenization2faConfig(message.cardTokenization2faConfig),
    feeConfigs: uniqueBy(p, feeConfigs, 'feeConfigs', (f) => `${f.feeType}|${f.sourceCurrency}`),
    limits: uniqueBy(p, limits, 'limits', (l) => `${l.currency}|${l.receivingCurrency ?? ''}`),
    webhookExtensionTypes: webhookExtensionTypes && [...new Set(webhookExtensionTypes)],
  });
  if (p.errors.length) throw AppError.invalidInput('Invalid platform configuration', p.errors);
  const unsupported = changes.feeConfigs?.find((f) =>
    !(FEE_SOURCE_CURRENCIES as readonly string[]).includes(f.sourceCurrency)
  );
  if (unsupported) {
    throw new AppError(
      'NOT_IMPLEMENTED',
      `Platform fees are supported for USD sources only, not ${unsupported.sourceCurrency}`,
      { field: 'feeConfigs', sourceCurrency: unsupported.sourceCurrency },
    );
  }
  return changes;
}
