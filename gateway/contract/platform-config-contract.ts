import { Type } from '@sinclair/typebox';
import {
  CUSTOMER_INFO_FIELD_NAMES as COUNTERPARTY_FIELD_NAMES,
  FEE_TYPES,
  TRANSACTION_TYPES,
} from '../../lib/contract/payment-vocabulary';
import { EXTENSION_WEBHOOK_TYPES } from '../../lib/contract/webhook-types';
import { operation } from './operation';
import { ClosedObject, DateTime, MinorUnits, named, StringEnum } from './schema-kit';

export const CounterpartyField = named(
  'CounterpartyFieldDefinition',
  ClosedObject({ name: StringEnum(COUNTERPARTY_FIELD_NAMES), mandatory: Type.Boolean() }),
);

/** Our extension: webhook types beyond the reference's `WebhookType` list, sent only once opted into here. */
const WebhookExtensionTypes = Type.Array(StringEnum(EXTENSION_WEBHOOK_TYPES), {
  description: 'Webhook types the reference does not have that this platform also wants '
    + '(our extension; none by default). The list given replaces the current one.',
});

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Email = Type.String({ maxLength: 255, format: 'email' });

const embeddedWalletMembers = {
  appName: Type.Optional(Name),
  otpLength: Type.Optional(Type.Integer({ minimum: 4, maximum: 12 })),
  alphanumeric: Type.Optional(Type.Boolean()),
  expirationSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400 })),
  sendFromEmailAddress: Type.Optional(Email),
  sendFromEmailSenderName: Type.Optional(Name),
  replyToEmailAddress: Type.Optional(Email),
  logoUrl: Type.Optional(Type.String({ maxLength: 512, format: 'url' })),
};

/**
 * The reference's CardTokenization2FAConfig, bound for bound (its texts have no minimum length; the logo is an https
 * URL).
 */
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const cardTokenizationMembers = {
  displayName: Text(255),
  logoUrl: Type.Optional(Type.String({ maxLength: 512, format: 'url', pattern: '^https://' })),
  email: Type.Optional(Type.Object({
    fromAddress: Type.Optional(Email),
    fromName: Text(255),
    replyToAddress: Type.Optional(Email),
    subject: Text(255),
    bodyText: Text(2000),
  })),
  sms: Type.Optional(Type.Object({ templateSid: Text(64), bodyText: Text(480) })),
};

const currencyConfigMembers = {
  currencyCode: Type.String(),
  minAmount: MinorUnits({ minimum: 0 }),
  maxAmount: MinorUnits({ minimum: 0 }),
  requiredCounterpartyFields: Type.Array(CounterpartyField),
  enabledTransactionTypes: Type.Array(StringEnum(TRANSACTION_TYPES)),
};

/** The response lists the provider's fields before `enabledTransactionTypes`, as the reference does. */
const { enabledTransactionTypes, ...firstCurrencyMembers } = currencyConfigMembers;

const feeConfigMembers = {
  feeType: StringEnum(FEE_TYPES),
  sourceCurrency: Type.String(),
  variableFeeBps: Type.Integer({ minimum: 0, maximum: 10000 }),
  fixedFee: ClosedObject({ amount: MinorUnits({ minimum: 0 }), currency: Type.String() }),
};

const limitMembers = {
  currency: Type.String({ description: 'Sending currency the limit applies to' }),
  receivingCurrency: Type.Optional(Type.String({ description: 'Narrows the limit to one receiving currency' })),
  maxSingleTransaction: Type.Optional(MinorUnits({ minimum: 1 })),
  dailyVolume: Type.Optional(MinorUnits({ minimum: 1 })),
};

export const PlatformConfig = named(
  'PlatformConfig',
  ClosedObject({
    id: Type.String(),
    umaDomain: Type.Optional(Type.String()),
    proxyUmaSubdomain: Type.Optional(Type.String()),
    webhookEndpoint: Type.Optional(Type.String()),
    supportedCurrencies: Type.Array(ClosedObject({
      ...firstCurrencyMembers,
      providerRequiredCustomerFields: Type.Optional(Type.Array(Type.String())),
      providerRequiredCounterpartyCustomerFields: Type.Optional(Type.Array(Type.String())),
      enabledTransactionTypes,
    })),
    isRegulatedFinancialInstitution: Type.Optional(Type.Boolean()),
    embeddedWalletConfig: Type.Optional(ClosedObject(embeddedWalletMembers)),
    cardTokenization2faConfig: Type.Optional(ClosedObject({
      ...cardTokenizationMembers,
      email: Type.Optional(ClosedObject(cardTokenizationMembers.email.properties)),
      sms: Type.Optional(ClosedObject(cardTokenizationMembers.sms.properties)),
    })),
    feeConfigs: Type.Array(ClosedObject(feeConfigMembers)),
    limits: Type.Array(ClosedObject(limitMembers), {
      description: 'Per-transaction and daily limits (our addition to the reference record)',
    }),
    webhookExtensionTypes: Type.Optional(WebhookExtensionTypes),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

/** A host name of two labels or more, lower case. */
const DOMAIN = '^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$';

const PlatformConfigUpdateRequest = named(
  'PlatformConfigUpdateRequest',
  Type.Object({
    umaDomain: Type.Optional(Type.String({ pattern: DOMAIN })),
    webhookEndpoint: Type.Optional(Type.String({ maxLength: 2048, format: 'url' })),
    supportedCurrencies: Type.Optional(Type.Array(Type.Object(currencyConfigMembers))),
    embeddedWalletConfig: Type.Optional(Type.Object(embeddedWalletMembers)),
    cardTokenization2faConfig: Type.Optional(Type.Object(cardTokenizationMembers)),
    feeConfigs: Type.Optional(Type.Array(Type.Object(feeConfigMembers))),
    limits: Type.Optional(Type.Array(Type.Object(limitMembers))),
    webhookExtensionTypes: Type.Optional(WebhookExtensionTypes),
  }, { description: 'Members given replace the current ones; read-only members are ignored' }),
);

const TAGS = ['Platform Configuration'];

export const platformConfigOperations = [
  operation({
    operationId: 'getPlatformConfig',
    method: 'get',
    path: '/config',
    tags: TAGS,
    summary: "Read the platform's configuration",
    success: { 200: PlatformConfig },
  }),
  operation({
    operationId: 'updatePlatformConfig',
    method: 'patch',
    path: '/config',
    tags: TAGS,
    summary: "Change the platform's configuration",
    body: PlatformConfigUpdateRequest,
    validatedWithUseCase: true,
    success: { 200: PlatformConfig },
    errors: [501],
  }),
];
