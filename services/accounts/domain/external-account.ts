import { EXTERNAL_ACCOUNT_STATUSES, OWNERSHIP_TYPES } from '../../../lib/contract/account-vocabulary';
import { AppError } from '../../../lib/errors';
import type { OwnershipChallengeRecord } from './ownership-challenge';
import { isSelfCustodyWallet } from './wallet-account-info';

export { EXTERNAL_ACCOUNT_STATUSES, OWNERSHIP_TYPES };
export type ExternalAccountStatus = (typeof EXTERNAL_ACCOUNT_STATUSES)[number];

/** A bank account or wallet outside the service, of a customer or (no `customerId`) of the platform. */
export interface ExternalAccount {
  id: string;
  platformId: string;
  customerId?: string;
  status: ExternalAccountStatus;
  platformAccountId?: string;
  ownershipType?: string;
  currency: string;
  defaultUmaDepositAccount: boolean;
  /** The validated REST accountInfo variant, discriminated by `accountType`. */
  accountInfo: Record<string, unknown>;
  /** Identifies the destination (type plus account identifiers) to refuse duplicates per owner. */
  fingerprint: string;
  /** The outstanding ownership challenge, while one is. */
  ownershipChallenge?: OwnershipChallengeRecord;
  createdAt: string;
  updatedAt: string;
}

/** A validated create request. */
export interface ExternalAccountDraft {
  customerId?: string;
  currency: string;
  platformAccountId?: string;
  ownershipType?: string;
  defaultUmaDepositAccount: boolean;
  accountInfo: Record<string, unknown>;
}

/** Members of each variant that identify the destination itself (a BIC only where no IBAN does). */
const IDENTIFYING_MEMBERS = [
  'routingNumber',
  'accountNumber',
  'clabeNumber',
  'iban',
  'pixKey',
  'ifsc',
  'vpa',
  'address',
  'invoice',
  'bolt12',
  'lightningAddress',
  'sortCode',
  'bankCode',
  'branchCode',
  'phoneNumber',
  'provider',
  'region',
  'country',
];

/** Hex (EVM) addresses, emails and bank codes compare without case; base58 and bech32 values keep it. */
function canonical(key: string, value: string): string {
  const caseless = value.startsWith('0x') || value.includes('@') || key === 'iban' || key === 'ifsc'
    || key === 'invoice' || key === 'bolt12';
  return caseless ? value.toLowerCase() : value;
}

export function accountFingerprint(accountInfo: Record<string, unknown>): string {
  const members = accountInfo.iban === undefined ? [...IDENTIFYING_MEMBERS, 'swiftCode'] : IDENTIFYING_MEMBERS;
  const parts = members.filter((k) => typeof accountInfo[k] === 'string').map((k) =>
    `${k}=${canonical(k, accountInfo[k] as string)}`
  );
  return [String(accountInfo.accountType), ...parts].join('|');
}

/**
 * A first-party self-custody wallet starts PENDING_OWNERSHIP_VERIFICATION (usable below the
 * regulatory thresholds until verified); every other account starts ACTIVE.
 */
export function initialStatus(draft: ExternalAccountDraft): ExternalAccountStatus {
  const type = String(draft.accountInfo.accountType);
  return draft.ownershipType === 'FIRST_PARTY' && isSelfCustodyWallet(type)
    ? 'PENDING_OWNERSHIP_VERIFICATION'
    : 'ACTIVE';
}

/**
 * The verification status moves: the outcome of an ownership verification, and (as the reference
 * states) an UNVERIFIED account back to pending when a new challenge is issued.
 */
const TRANSITIONS: Partial<Record<ExternalAccountStatus, readonly ExternalAccountStatus[]>> = {
  PENDING_OWNERSHIP_VERIFICATION: ['ACTIVE', 'UNVERIFIED'],
  UNVERIFIED: ['PENDING_OWNERSHIP_VERIFICATION'],
};

export function canTransition(from: ExternalAccountStatus, to: ExternalAccountStatus): boolean {
  return TRANSITIONS[from]?.includes(to) ?? false;
}

export function assertTransition(from: ExternalAccountStatus, to: ExternalAccountStatus): void {
  if (!canTransition(from, to)) {
    throw new AppError('INVALID_STATE', `External account status cannot change from ${from} to ${to}`, {
      status: from,
    });
  }
}
