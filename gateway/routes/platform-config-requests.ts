import type {
  CardTokenization2faConfigFields,
  CurrencyConfigFields,
  EmbeddedWalletConfigFields,
  FeeConfigFields,
  LimitFields,
  PlatformConfigChanges,
} from '../../gen/accounts/v1/platform_config_changes';
import { RestBody } from './rest-body';

/* The REST body of PATCH /config → PlatformConfigChanges. */

const currencyConfig = (b: RestBody): CurrencyConfigFields => ({
  currencyCode: b.string('currencyCode'),
  minAmount: b.integer('minAmount'),
  maxAmount: b.integer('maxAmount'),
  requiredCounterpartyFields: b.objectList(
    'requiredCounterpartyFields',
    (f) => ({ name: f.string('name'), mandatory: f.boolean('mandatory') }),
  ),
  enabledTransactionTypes: b.stringList('enabledTransactionTypes'),
});

const feeConfig = (b: RestBody): FeeConfigFields => ({
  feeType: b.string('feeType'),
  sourceCurrency: b.string('sourceCurrency'),
  variableFeeBps: b.integer('variableFeeBps'),
  fixedFee: b.object('fixedFee', (f) => ({ amount: f.integer('amount'), currency: f.string('currency') })),
});

const limit = (b: RestBody): LimitFields => ({
  currency: b.string('currency'),
  receivingCurrency: b.string('receivingCurrency'),
  maxSingleTransaction: b.integer('maxSingleTransaction'),
  dailyVolume: b.integer('dailyVolume'),
});

const embeddedWalletConfig = (b: RestBody): EmbeddedWalletConfigFields => ({
  appName: b.string('appName'),
  otpLength: b.integer('otpLength'),
  alphanumeric: b.boolean('alphanumeric'),
  expirationSeconds: b.integer('expirationSeconds'),
  sendFromEmailAddress: b.string('sendFromEmailAddress'),
  sendFromEmailSenderName: b.string('sendFromEmailSenderName'),
  replyToEmailAddress: b.string('replyToEmailAddress'),
  logoUrl: b.string('logoUrl'),
});

const cardTokenization2faConfig = (b: RestBody): CardTokenization2faConfigFields => ({
  displayName: b.string('displayName'),
  logoUrl: b.string('logoUrl'),
  email: b.object('email', (e) => ({
    fromAddress: e.string('fromAddress'),
    fromName: e.string('fromName'),
    replyToAddress: e.string('replyToAddress'),
    subject: e.string('subject'),
    bodyText: e.string('bodyText'),
  })),
  sms: b.object('sms', (s) => ({ templateSid: s.string('templateSid'), bodyText: s.string('bodyText') })),
});

export function platformConfigChanges(body: unknown): PlatformConfigChanges {
  const b = RestBody.of(body);
  const changes: PlatformConfigChanges = {
    umaDomain: b.string('umaDomain'),
    webhookEndpoint: b.string('webhookEndpoint'),
    supportedCurrencies: b.objectList('supportedCurrencies', currencyConfig),
    embeddedWalletConfig: b.object('embeddedWalletConfig', embeddedWalletConfig),
    cardTokenization2faConfig: b.object('cardTokenization2faConfig', cardTokenization2faConfig),
    feeConfigs: b.objectList('feeConfigs', feeConfig),
    limits: b.objectList('limits', limit),
    webhookExtensionTypes: b.stringList('webhookExtensionTypes'),
  };
  b.done('Invalid platform configuration');
  return changes;
}
