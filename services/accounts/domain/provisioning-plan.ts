import {
  holdingAccountType,
  openInternalAccount,
  type InternalAccount,
  type InternalAccountType,
} from './internal-account';
import { internalAccountId } from './name-based-id';

/**
 * One internal account that must exist for an owner, listed on the owner's record (the
 * `provisioning` marker) before it is opened and removed once it exists (and, for an embedded
 * wallet, once the wallet is provisioned). A marker left behind by a crash is completed later.
 */
export interface ProvisioningStep {
  accountId: string;
  currency: string;
  type: InternalAccountType;
  plannedAt: string;
}

/** A holding account per currency, with ids derived from the owner. */
export function holdingAccountSteps(ownerId: string, currencies: readonly string[], now: string): ProvisioningStep[] {
  return currencies.map((currency) => {
    const type = holdingAccountType(currency);
    return { accountId: internalAccountId(ownerId, currency, type), currency, type, plannedAt: now };
  });
}

export function embeddedWalletStep(customerId: string, currency: string, now: string): ProvisioningStep {
  return {
    accountId: internalAccountId(customerId, currency, 'EMBEDDED_WALLET'),
    currency,
    type: 'EMBEDDED_WALLET',
    plannedAt: now,
  };
}

/** The account a step opens. */
export function accountOfStep(
  step: ProvisioningStep,
  owner: { platformId: string; customerId?: string },
  now: string,
): InternalAccount {
  return openInternalAccount({
    id: step.accountId,
    platformId: owner.platformId,
    customerId: owner.customerId,
    currency: step.currency,
    type: step.type,
    now,
  });
}
