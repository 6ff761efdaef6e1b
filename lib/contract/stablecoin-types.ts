/**
 * The enumerations of the Stablecoins resources, written once: the contract publishes them and the
 * quotes-transactions domain (services/quotes-transactions/stablecoins/domain/stablecoin-operation.ts) uses them.
 */
export const STABLECOIN_OPERATION_STATUSES = [
  'CREATED',
  'PENDING_FUNDING',
  'PENDING_PROVIDER',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
] as const;
export type StablecoinOperationStatus = (typeof STABLECOIN_OPERATION_STATUSES)[number];

export const STABLECOIN_OPERATION_TYPES = ['MINT', 'BURN'] as const;
export type StablecoinOperationType = (typeof STABLECOIN_OPERATION_TYPES)[number];

export const MINT_FUNDING_SOURCE_TYPES = [
  'WIRE',
  'ACH_DEBIT',
  'SAME_DAY_ACH_DEBIT',
  'GRID_INTERNAL_ACCOUNT',
  'PROVIDER_INTERNAL_BALANCE',
] as const;
export const BURN_SOURCE_TYPES = ['EXTERNAL_ACCOUNT', 'GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
export const BURN_RAILS = ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT'] as const;
export type BurnRail = (typeof BURN_RAILS)[number];
export type OperationSourceType = (typeof MINT_FUNDING_SOURCE_TYPES)[number] | (typeof BURN_SOURCE_TYPES)[number];

export const STABLECOIN_PROVIDERS = ['BRALE'] as const;
export const STABLECOIN_NETWORKS = ['SPARK'] as const;
export const PROVIDER_ENVIRONMENTS = ['SANDBOX', 'PRODUCTION'] as const;
export type ProviderEnvironment = (typeof PROVIDER_ENVIRONMENTS)[number];
export const PROVIDER_ACCOUNT_STATUSES = ['ACTIVE', 'INVALID', 'REVOKED'] as const;
export type ProviderAccountStatus = (typeof PROVIDER_ACCOUNT_STATUSES)[number];
export const ISSUANCE_STATUSES = ['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED'] as const;
export type IssuanceStatus = (typeof ISSUANCE_STATUSES)[number];
export const GRID_OPERATIONS_STATUSES = ['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED'] as const;
