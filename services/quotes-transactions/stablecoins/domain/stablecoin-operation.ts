/**
 * Stablecoin issuer operations (mints and burns through the provider): the one status machine,
 * the one table from provider transfer states to ours, and the amount rules.
 */
import { MAX_AMOUNT } from '../../../../lib/contract/amount-bounds';
import {
  STABLECOIN_OPERATION_STATUSES,
  STABLECOIN_OPERATION_TYPES,
  MINT_FUNDING_SOURCE_TYPES,
  BURN_SOURCE_TYPES,
  BURN_RAILS,
  STABLECOIN_PROVIDERS,
  STABLECOIN_NETWORKS,
  PROVIDER_ENVIRONMENTS,
  PROVIDER_ACCOUNT_STATUSES,
  ISSUANCE_STATUSES,
  GRID_OPERATIONS_STATUSES,
  type StablecoinOperationStatus,
  type StablecoinOperationType,
  type BurnRail,
  type OperationSourceType,
  type ProviderEnvironment,
  type ProviderAccountStatus,
  type IssuanceStatus,
} from '../../../../lib/contract/stablecoin-types';

export {
  STABLECOIN_OPERATION_STATUSES,
  STABLECOIN_OPERATION_TYPES,
  MINT_FUNDING_SOURCE_TYPES,
  BURN_SOURCE_TYPES,
  BURN_RAILS,
  STABLECOIN_PROVIDERS,
  STABLECOIN_NETWORKS,
  PROVIDER_ENVIRONMENTS,
  PROVIDER_ACCOUNT_STATUSES,
  ISSUANCE_STATUSES,
  GRID_OPERATIONS_STATUSES,
  type StablecoinOperationStatus,
  type StablecoinOperationType,
  type BurnRail,
  type OperationSourceType,
  type ProviderEnvironment,
  type ProviderAccountStatus,
  type IssuanceStatus,
};

/** Every allowed move; anything else is refused. Terminal states have none. */
const TRANSITIONS: Record<StablecoinOperationStatus, readonly StablecoinOperationStatus[]> = {
  CREATED: ['PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED'],
  PENDING_FUNDING: ['PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'],
  PENDING_PROVIDER: ['PROCESSING', 'COMPLETED', 'FAILED'],
  PROCESSING: ['COMPLETED', 'FAILED'],
  COMPLETED: [],
  FAILED: [],
  EXPIRED: [],
};

export function canMove(from: StablecoinOperationStatus, to: StablecoinOperationStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isTerminal(status: StablecoinOperationStatus): boolean {
  return TRANSITIONS[status].length === 0;
}

/** The statuses an operation may be moved into `to` from (the guard of a conditional update). */
export function statusesBefore(to: StablecoinOperationStatus): StablecoinOperationStatus[] {
  return STABLECOIN_OPERATION_STATUSES.filter((from) => canMove(from, to));
}

/**
 * Provider transfer states (Brale: pending, processing, complete, canceled, failed) to ours. A
 * transfer waiting on funds the issuer sends (wire, on-chain deposit) is PENDING_FUNDING; one the
 * provider holds the funds for is PENDING_PROVIDER until it reports processing.
 */
export const PROVIDER_STATUS_TABLE: Record<string, StablecoinOperationStatus | 'AWAITING'> = {
  pending: 'AWAITING',
  processing: 'PROCESSING',
  complete: 'COMPLETED',
  canceled: 'FAILED',
  failed: 'FAILED',
};

/** Our status for what the provider reports; unknown states leave the operation where it is. */
export function statusFromProvider(
  providerStatus: string,
  awaitsExternalFunds: boolean,
): StablecoinOperationStatus | undefined {
  const mapped = PROVIDER_STATUS_TABLE[providerStatus.toLowerCase()];
  if (mapped === undefined) return undefined;
  if (mapped === 'AWAITING') return awaitsExternalFunds ? 'PENDING_FUNDING' : 'PENDING_PROVIDER';
  return mapped;
}

/** Wire-funded mints and external-wallet burns wait for funds the issuer sends; they expire unfunded. */
export function awaitsExternalFunds(type: StablecoinOperationType, sourceType: OperationSourceType): boolean {
  return (type === 'MINT' && sourceType === 'WIRE') || (type === 'BURN' && sourceType === 'EXTERNAL_ACCOUNT');
}

/**
 * The fiat cents an amount in the token's smallest unit is worth (1 token = 1 unit of the base
 * currency); undefined unless it converts exactly to a whole cent and is positive.
 */
export function fiatCentsOf(amount: string, decimals: number): number | undefined {
  if (!/^[0-9]+$/.test(amount)) return undefined;
  const units = BigInt(amount);
  if (units <= 0n) return undefined;
  if (decimals < 2) {
    const cents = units * 10n ** BigInt(2 - decimals);
    return cents <= BigInt(MAX_AMOUNT) ? Number(cents) : undefined;
  }
  const perCent = 10n ** BigInt(decimals - 2);
  if (units % perCent !== 0n) return undefined;
  const cents = units / perCent;
  return cents <= BigInt(MAX_AMOUNT) ? Number(cents) : undefined;
}

/** The provider's decimal amount string ("1000.00") for cents. */
export function decimalOfCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Static rail timings (guidance, not a promise). */
export const RAIL_TIMING: Record<BurnRail, string> = {
  WIRE: 'Same business day',
  ACH_CREDIT: '1-3 business days',
  SAME_DAY_ACH_CREDIT: 'Same business day',
  RTP_CREDIT: 'Within minutes',
};

/** Brale's transfer_type for a rail of ours. */
export const PROVIDER_RAIL: Record<string, string> = {
  WIRE: 'wire',
  ACH_DEBIT: 'ach_debit',
  SAME_DAY_ACH_DEBIT: 'same_day_ach_debit',
  ACH_CREDIT: 'ach_credit',
  SAME_DAY_ACH_CREDIT: 'same_day_ach_credit',
  RTP_CREDIT: 'rtp_credit',
  SPARK: 'spark',
};

export type GridOperationsStatus = typeof GRID_OPERATIONS_STATUSES[number];

/**
 * Whether Grid serves operations in a registered stablecoin, from what the provider reports: a
 * token the provider has provisioned, on a usable link, is ENABLED (and gets its Grid currency
 * code, its symbol); one still under the provider's review is PENDING_APPROVAL; one the provider
 * rejected or failed is NOT_ENABLED; a revoked link DISABLES it.
 */
export function gridOperationsStatusOf(issuance: IssuanceStatus, link: ProviderAccountStatus): GridOperationsStatus {
  if (link === 'REVOKED') return 'DISABLED';
  if (issuance === 'PROVISIONED') return 'ENABLED';
  if (issuance === 'PENDING_REVIEW' || issuance === 'PROVISIONING') return 'PENDING_APPROVAL';
  return 'NOT_ENABLED';
}

/** Issuance states the provider may still change (worth reading again). */
export const issuanceSettled = (issuance: IssuanceStatus) =>
  issuance !== 'PENDING_REVIEW' && issuance !== 'PROVISIONING';
