import type { OwnershipChallenge } from '../../../gen/accounts/v1/external_account_requests';
import type { PlatformConfig } from '../../../gen/accounts/v1/platform_config';
import type { PlatformConfigView } from '../app/platform-configs';
import type { OwnershipChallengeView } from '../domain/ownership-challenge';

export function platformConfigMessage(c: PlatformConfigView): PlatformConfig {
  return {
    id: c.id,
    umaDomain: c.umaDomain,
    webhookEndpoint: c.webhookEndpoint,
    supportedCurrencies: c.supportedCurrencies.map((s) => ({
      ...s,
      providerRequiredCustomerFields: [],
      providerRequiredCounterpartyCustomerFields: [],
    })),
    isRegulatedFinancialInstitution: c.isRegulatedFinancialInstitution,
    embeddedWalletConfig: c.embeddedWalletConfig,
    cardTokenization2faConfig: c.cardTokenization2faConfig,
    feeConfigs: c.feeConfigs,
    limits: c.limits,
    webhookExtensionTypes: c.webhookExtensionTypes ?? [],
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

export function ownershipChallengeMessage(c: OwnershipChallengeView): OwnershipChallenge {
  return {
    method: c.method,
    messageToSign: c.messageToSign,
    verificationLink: c.verificationLink,
    expiresAt: c.expiresAt,
  };
}
