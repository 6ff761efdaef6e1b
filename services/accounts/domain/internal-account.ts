import { currencyInfo } from './currencies';

export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;
export type InternalAccountType = (typeof INTERNAL_ACCOUNT_TYPES)[number];
export const INTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED'] as const;

/** A balance held by the service for a customer, or for the platform when `customerId` is absent. */
export interface InternalAccount {
  id: string;
  platformId: string;
  customerId?: string;
  type: InternalAccountType;
  status: (typeof INTERNAL_ACCOUNT_STATUSES)[number];
  currency: string;
  /** Minor units available to spend (excludes pending and held funds). */
  availableBalance: number;
  /** Minor units including pending and held funds. */
  totalBalance: number;
  createdAt: string;
  updatedAt: string;
}

/** A new, empty, active holding account in `currency`: fiat or crypto by the currency's kind. */
export function openInternalAccount(input: { id: string; platformId: string; customerId?: string; currency: string; now: string }): InternalAccount {
  return {
    id: input.id,
    platformId: input.platformId,
    ...(input.customerId ? { customerId: input.customerId } : {}),
    type: currencyInfo(input.currency).kind === 'CRYPTO' ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT',
    status: 'ACTIVE',
    currency: input.currency,
    availableBalance: 0,
    totalBalance: 0,
    createdAt: input.now,
    updatedAt: input.now,
  };
}
