import type { AccountsDirectory } from '../app/accounts-directory';
import type { LookupStore } from '../app/lookup-store';
import type { Lookup } from '../domain/lookup';
import type { ExternalAccountData } from '../domain/receiving-destination';

export const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
export const OTHER_PLATFORM = 'Platform:22222222-2222-4222-8222-222222222222';
export const CUSTOMER = 'Customer:33333333-3333-4333-8333-333333333333';
export const CUSTOMER_WITHOUT_ACCOUNTS = 'Customer:44444444-4444-4444-8444-444444444444';
export const UNKNOWN_CUSTOMER = 'Customer:55555555-5555-4555-8555-555555555555';
export const MXN_ACCOUNT = 'ExternalAccount:66666666-6666-4666-8666-666666666666';
export const OTHER_PLATFORM_ACCOUNT = 'ExternalAccount:77777777-7777-4777-8777-777777777777';
export const UNKNOWN_ACCOUNT = 'ExternalAccount:88888888-8888-4888-8888-888888888888';
export const SENDER_UMA = '$alice@uma.example.com';
export const NOW = new Date('2025-10-13T12:00:00.000Z');

export function mxnAccountInfo(fullName = 'Ana Ruiz'): Record<string, unknown> {
  return {
    accountType: 'MXN_ACCOUNT',
    clabeNumber: '123456789012345678',
    paymentRails: ['SPEI'],
    beneficiary: {
      beneficiaryType: 'INDIVIDUAL',
      fullName,
      address: { line1: 'Av. Reforma 1', postalCode: '06600', country: 'MX' },
    },
  };
}

/** Accounts of two platforms; the customer's primary internal account is in `customerCurrency`. */
export function fakeAccountsDirectory(
  customerCurrency = 'USDC',
): AccountsDirectory & { accounts: Map<string, ExternalAccountData & { platformId: string }> } {
  const accounts = new Map<string, ExternalAccountData & { platformId: string }>([
    [MXN_ACCOUNT, { platformId: PLATFORM, id: MXN_ACCOUNT, currency: 'MXN', accountInfo: mxnAccountInfo() }],
    [OTHER_PLATFORM_ACCOUNT, {
      platformId: OTHER_PLATFORM,
      id: OTHER_PLATFORM_ACCOUNT,
      currency: 'MXN',
      accountInfo: mxnAccountInfo(),
    }],
  ]);
  const customers = new Map([[CUSTOMER, PLATFORM], [CUSTOMER_WITHOUT_ACCOUNTS, PLATFORM]]);
  const directory: AccountsDirectory = {
    async externalAccount(caller, id) {
      const found = accounts.get(id);
      return found && found.platformId === caller.platformId
        ? { id: found.id, currency: found.currency, accountInfo: found.accountInfo }
        : null;
    },
    async senderCurrency(caller, id) {
      if (customers.get(id) !== caller.platformId) return null;
      return id === CUSTOMER ? customerCurrency : undefined;
    },
    async lookupParties(caller, { customerId, accountId }) {
      const account = await directory.externalAccount(caller, accountId);
      if (!customerId) return { account };
      const currency = await directory.senderCurrency(caller, customerId);
      return { account, sender: currency === null ? null : { currency } };
    },
  };
  return { accounts, ...directory };
}

export function memoryLookupStore(): LookupStore & { saved: Lookup[] } {
  const saved: Lookup[] = [];
  return {
    saved,
    async save(lookup) {
      saved.push(structuredClone(lookup));
    },
    async find(platformId, id) {
      return structuredClone(saved.find((l) => l.id === id && l.platformId === platformId) ?? null);
    },
    async ensureIndexes() {},
    async forgetExpired(before) {
      const kept = saved.filter((l) => l.expiresAt >= before.toISOString());
      const forgotten = saved.length - kept.length;
      saved.splice(0, saved.length, ...kept);
      return forgotten;
    },
  };
}
