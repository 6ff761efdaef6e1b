import type { PlatformConfig, PlatformCurrencyConfig } from '../../gen/accounts/v1/platform_config';
import { nonEmpty, withoutAbsent } from './rest-request';

function currencyConfigJson(c: PlatformCurrencyConfig) {
  return withoutAbsent({
    currencyCode: c.currencyCode,
    minAmount: c.minAmount,
    maxAmount: c.maxAmount,
    requiredCounterpartyFields: c.requiredCounterpartyFields.map((f) => ({ name: f.name, mandatory: f.mandatory })),
    providerRequiredCustomerFields: nonEmpty(c.providerRequiredCustomerFields),
    providerRequiredCounterpartyCustomerFields: nonEmpty(c.providerRequiredCounterpartyCustomerFields),
    enabledTransactionTypes: c.enabledTransactionTypes,
  });
}

/** The REST PlatformConfig (plus `limits`), member by member; absent optionals are omitted. */
export function platformConfigJson(c: PlatformConfig) {
  const card = c.cardTokenization2faConfig;
  return withoutAbsent({
    id: c.id,
    umaDomain: c.umaDomain,
    proxyUmaSubdomain: c.proxyUmaSubdomain,
    webhookEndpoint: c.webhookEndpoint,
    supportedCurrencies: c.supportedCurrencies.map(currencyConfigJson),
    isRegulatedFinancialInstitution: c.isRegulatedFinancialInstitution,
    embeddedWalletConfig: c.embeddedWalletConfig ? withoutAbsent({ ...c.embeddedWalletConfig }) : undefined,
    cardTokenization2faConfig: card
      ? withoutAbsent({
        displayName: card.displayName,
        logoUrl: card.logoUrl,
        email: card.email ? withoutAbsent({ ...card.email }) : undefined,
        sms: card.sms ? withoutAbsent({ ...card.sms }) : undefined,
      })
      : undefined,
    feeConfigs: c.feeConfigs.map((f) => ({
      feeType: f.feeType,
      sourceCurrency: f.sourceCurrency,
      variableFeeBps: f.variableFeeBps,
      fixedFee: { amount: f.fixedFee?.amount ?? 0, currency: f.fixedFee?.currency ?? f.sourceCurrency },
    })),
    limits: c.limits.map((l) => withoutAbsent({ ...l })),
    webhookExtensionTypes: nonEmpty(c.webhookExtensionTypes),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  });
}
