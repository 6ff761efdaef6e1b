import { createHash } from 'node:crypto';
import { AppError, type FieldError } from '../../../../lib/errors';

/** The reference's DelegatedKeyStatus. */
export const DELEGATED_KEY_STATUSES = ['PENDING', 'ACTIVE', 'REVOKED'] as const;

/**
 * CREATING: the first challenge is out and nothing is authorized yet (the key exists only for us,
 * so it is listed nowhere). PENDING: the wallet owner signed the creation, not the policy: the key
 * cannot sign. ACTIVE: both legs signed. REVOKED: terminal.
 */
export type DelegatedKeyStatus = (typeof DELEGATED_KEY_STATUSES)[number] | 'CREATING';

export interface SpendingLimit {
  currencyCode: string;
  /** Minor units. */
  maxPerTransaction: number;
}

export interface DelegatedKey {
  id: string;
  platformId: string;
  cardId: string;
  fundingSourceId: string;
  accountId: string;
  /** Compressed P-256 public key, hex. */
  publicKey: string;
  /** The private key, sealed with the record id as context; never leaves this service. */
  sealedPrivateKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  spendingLimits?: SpendingLimit[];
  /** The challenge of the creation leg (leg 2 answers it). */
  createRequestId: string;
  /** The challenge of the policy leg (leg 3 answers it), issued when the creation leg is signed. */
  policyChallenge?: { payloadToSign: string; requestId: string; expiresAt: string };
  createdAt: string;
  updatedAt: string;
}

export interface DelegatedKeyRequest {
  cardId: string;
  internalAccountId: string;
  nickname: string;
  spendingLimits?: SpendingLimit[];
}

const CURRENCY_CODE = /^[A-Z0-9]{3,16}$/;

/**
 * Every invalid member of a create request, listed together (the contract checks shapes first; this holds without it).
 */
export function delegatedKeyRequestErrors(request: DelegatedKeyRequest): FieldError[] {
  const errors: FieldError[] = [];
  if (!request.cardId) errors.push({ field: 'cardId', message: 'is required' });
  if (!request.internalAccountId) errors.push({ field: 'internalAccountId', message: 'is required' });
  if (request.nickname.length < 1 || request.nickname.length > 256) {
    errors.push({
      field: 'nickname',
      message: 'must be 1 to 256 characters',
      constraint: { minLength: 1, maxLength: 256 },
    });
  }
  const seen = new Set<string>();
  (request.spendingLimits ?? []).forEach((limit, index) => {
    const at = `spendingLimits[${index}]`;
    if (!CURRENCY_CODE.test(limit.currencyCode)) {
      errors.push({
        field: `${at}.currencyCode`,
        message: 'must be an uppercase currency code',
        constraint: { pattern: CURRENCY_CODE.source },
      });
    } else if (seen.has(limit.currencyCode)) {
      errors.push({
        field: `${at}.currencyCode`,
        message: `${limit.currencyCode} has another entry: at most one per currency`,
      });
    }
    seen.add(limit.currencyCode);
    if (!Number.isSafeInteger(limit.maxPerTransaction) || limit.maxPerTransaction < 1) {
      errors.push({ field: `${at}.maxPerTransaction`, message: 'must be a positive integer in minor units' });
    }
  });
  return errors;
}

/** The reference: a limit must be in the card's currency; any other is refused. */
export function limitCurrencyErrors(limits: readonly SpendingLimit[] | undefined, cardCurrency: string): FieldError[] {
  return (limits ?? []).flatMap((
    limit,
    index,
  ) => (limit.currencyCode === cardCurrency
    ? []
    : [{ field: `spendingLimits[${index}].currencyCode`, message: `must be the card's currency (${cardCurrency})` }])
  );
}

/**
 * The id of a card's binding to one funding account: derived from the pair (the reference finds
 * the binding by `(cardId, internalAccountId)`), so it is the same wherever it is computed.
 */
export function cardFundingSourceId(cardId: string, accountId: string): string {
  const hex = createHash('sha256').update(`${cardId}|${accountId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `CardFundingSource:${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${
    hex.slice(17, 20)
  }-${hex.slice(20, 32)}`;
}

export type DelegationRefusal = 'DELEGATED_KEY_REQUIRED' | 'SPENDING_LIMIT_EXCEEDED';

/** A card's spend of `amount` from one of its embedded-wallet funding sources (`accountId`). */
export interface WalletFundedSpend {
  platformId: string;
  cardId: string;
  accountId: string;
  currency: string;
  amount: number;
}

/**
 * Whether an embedded-wallet funding source may fund an authorization: only through an ACTIVE
 * key, and within its limit for the currency (a currency without an entry is unlimited).
 */
export function delegationRefusal(
  key: DelegatedKey | null,
  currency: string,
  amount: number,
): DelegationRefusal | undefined {
  if (!key || key.status !== 'ACTIVE') return 'DELEGATED_KEY_REQUIRED';
  const limit = key.spendingLimits?.find((l) => l.currencyCode === currency);
  if (limit && amount > limit.maxPerTransaction) return 'SPENDING_LIMIT_EXCEEDED';
  return undefined;
}

/**
 * DELETE: only an ACTIVE key is revoked (the reference answers 400 otherwise; INVALID_INPUT is its Error400 code that
 * fits).
 */
export function checkRevocable(key: DelegatedKey): void {
  if (key.status !== 'ACTIVE') {
    throw AppError.invalidInput(`${key.id} is ${key.status}: only an ACTIVE delegated key can be revoked`, [{
      field: 'id',
      message: `is ${key.status}, not ACTIVE`,
    }]);
  }
}

/** What the API shows: never the private key, nor our internal leg state. */
export function delegatedKeyView(key: DelegatedKey) {
  return {
    id: key.id,
    cardId: key.cardId,
    fundingSourceId: key.fundingSourceId,
    accountId: key.accountId,
    publicKey: key.publicKey,
    nickname: key.nickname,
    status: key.status as (typeof DELEGATED_KEY_STATUSES)[number],
    spendingLimits: key.spendingLimits ?? [],
    createdAt: key.createdAt,
    updatedAt: key.updatedAt,
  };
}
