import { currencyInfo } from './currencies';

import { INTERNAL_ACCOUNT_STATUSES, INTERNAL_ACCOUNT_TYPES } from '../../../lib/contract/account-vocabulary';

export { INTERNAL_ACCOUNT_STATUSES, INTERNAL_ACCOUNT_TYPES };
export type InternalAccountType = (typeof INTERNAL_ACCOUNT_TYPES)[number];
export type InternalAccountStatus = (typeof INTERNAL_ACCOUNT_STATUSES)[number];

/** A balance held by the service for a customer, or for the platform when `customerId` is absent. */
export interface InternalAccount {
  id: string;
  platformId: string;
  customerId?: string;
  type: InternalAccountType;
  status: InternalAccountStatus;
  currency: string;
  /** Minor units available to spend (excludes pending and held funds); the ledger's when it answers. */
  availableBalance: number;
  /** Minor units including pending and held funds. */
  totalBalance: number;
  /** EMBEDDED_WALLET only: the auth service has set up the wallet and its default credential. */
  walletProvisioned?: boolean;
  /** EMBEDDED_WALLET only, on reads: wallet privacy, owned by the auth service (never stored here). */
  privateEnabled?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The holding account type for a currency: fiat or crypto by the currency's kind. */
export function holdingAccountType(currency: string): 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' {
  return currencyInfo(currency).kind === 'CRYPTO' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

/**
 * A new, empty account. Holding accounts are ACTIVE at once; an embedded wallet stays PENDING
 * (it cannot send or receive) until its wallet is provisioned.
 */
export function openInternalAccount(input: {
  id: string;
  platformId: string;
  customerId?: string;
  currency: string;
  type?: InternalAccountType;
  now: string;
}): InternalAccount {
  const type = input.type ?? holdingAccountType(input.currency);
  const wallet = type === 'EMBEDDED_WALLET';
  return {
    id: input.id,
    platformId: input.platformId,
    ...(input.customerId ? { customerId: input.customerId } : {}),
    type,
    status: wallet ? 'PENDING' : 'ACTIVE',
    currency: input.currency,
    availableBalance: 0,
    totalBalance: 0,
    ...(wallet ? { walletProvisioned: false } : {}),
    createdAt: input.now,
    updatedAt: input.now,
  };
}
