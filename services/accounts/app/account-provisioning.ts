import type { NewEvent } from '../../../lib/bus/outbox';
import type { Logger } from '../../../lib/log';
import type { Customer } from '../domain/customer';
import { accountOfStep, type ProvisioningStep } from '../domain/provisioning-plan';
import { internalAccountCreated, internalAccountStatusUpdated } from './account-events';
import type { AccountsStore, Platform } from './accounts-store';
import type { WalletProvisioner } from './service-ports';

export interface ProvisioningReport {
  completed: number;
  /** Steps left for a later run (a wallet the auth service could not provision yet). */
  pending: number;
}

export interface AccountProvisioning {
  /**
   * Runs `steps` of the customer's marker: opens each account (idempotent: derived ids), asks the
   * auth service to provision a wallet, and removes each step once done. A wallet that cannot be
   * provisioned now stays listed for the repair worker; any other failure is thrown.
   */
  completeCustomer(customer: Customer, steps: ProvisioningStep[]): Promise<ProvisioningReport>;
  completePlatform(platform: Platform, steps: ProvisioningStep[]): Promise<ProvisioningReport>;
}

export function createAccountProvisioning(deps: {
  store: AccountsStore;
  newEvent: NewEvent;
  clock: () => Date;
  wallets: WalletProvisioner;
  logger: Logger;
}): AccountProvisioning {
  const { store, newEvent } = deps;
  const now = () => deps.clock().toISOString();

  const open = async (step: ProvisioningStep, owner: { platformId: string; customerId?: string }) => {
    const account = accountOfStep(step, owner, now());
    await store.internalAccounts.insertIfAbsent(account, [internalAccountCreated(newEvent, account)]);
  };

  /** True once the wallet is provisioned; false when the auth service could not do it now. */
  const provisionWallet = async (step: ProvisioningStep, customer: Customer): Promise<boolean> => {
    const account = await store.internalAccounts.find(customer.platformId, step.accountId);
    if (!account || account.walletProvisioned) return true;
    try {
      await deps.wallets.provision({
        accountId: account.id,
        platformId: customer.platformId,
        customerEmail: customer.email,
        customerPhone: customer.phoneNumber,
      });
    } catch (err) {
      // The error may quote the request: log its code only, never the customer's contact data.
      deps.logger.warn('embedded wallet not provisioned yet; the repair worker retries', {
        accountId: account.id,
        code: (err as { code?: string }).code ?? 'UNKNOWN',
      });
      return false;
    }
    const event = internalAccountStatusUpdated(newEvent, { ...account, status: 'ACTIVE' }, account.status);
    await store.internalAccounts.markWalletProvisioned(customer.platformId, account.id, now(), [event]);
    return true;
  };

  return {
    async completeCustomer(customer, steps) {
      const done: string[] = [];
      for (const step of steps) {
        await open(step, { platformId: customer.platformId, customerId: customer.id });
        if (step.type !== 'EMBEDDED_WALLET' || (await provisionWallet(step, customer))) done.push(step.accountId);
      }
      if (done.length) await store.customers.completeProvisioning(customer.platformId, customer.id, done);
      return { completed: done.length, pending: steps.length - done.length };
    },
    async completePlatform(platform, steps) {
      for (const step of steps) await open(step, { platformId: platform.id });
      if (steps.length) await store.platforms.completeProvisioning(platform.id, steps.map((s) => s.accountId));
      return { completed: steps.length, pending: 0 };
    },
  };
}
