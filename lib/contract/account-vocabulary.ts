/**
 * The closed value sets of accounts, as the REST interface spells them (the contract and the accounts service read
 * these).
 */
export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;
export const INTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED'] as const;
export const EXTERNAL_ACCOUNT_STATUSES = [
  'PENDING',
  'ACTIVE',
  'PENDING_OWNERSHIP_VERIFICATION',
  'UNVERIFIED',
  'UNDER_REVIEW',
  'INACTIVE',
] as const;
export const OWNERSHIP_TYPES = ['FIRST_PARTY', 'THIRD_PARTY'] as const;
/** How a FIRST_PARTY self-custody wallet proves its owner controls it. */
export const OWNERSHIP_METHODS = ['WALLET_SIGNATURE', 'LIVENESS'] as const;
