/**
 * The closed value sets of accounts, as the REST interface spells them (the contract and the accounts service read
 * these).
 */
export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;
export const INTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED'] as const;
/** How a FIRST_PARTY self-custody wallet proves its owner controls it. */
export const OWNERSHIP_METHODS = ['WALLET_SIGNATURE', 'LIVENESS'] as const;
