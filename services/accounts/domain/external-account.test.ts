import { AppError } from '../../../lib/errors';
import { ACCOUNT_INFO } from '../test-fixtures/request-bodies';
import {
  accountFingerprint,
  assertTransition,
  canTransition,
  EXTERNAL_ACCOUNT_STATUSES,
  initialStatus,
  type ExternalAccountStatus,
} from './external-account';

describe('verification status machine', () => {
  const allowed: Array<[ExternalAccountStatus, ExternalAccountStatus]> = [
    ['PENDING_OWNERSHIP_VERIFICATION', 'ACTIVE'],
    ['PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED'],
    ['UNVERIFIED', 'PENDING_OWNERSHIP_VERIFICATION'],
  ];
  const pairs = EXTERNAL_ACCOUNT_STATUSES.flatMap((from) => EXTERNAL_ACCOUNT_STATUSES.map((to) => [from, to] as const));

  test.each(pairs)('%s -> %s', (from, to) => {
    const expected = allowed.some(([f, t]) => f === from && t === to);
    expect(canTransition(from, to)).toBe(expected);
    if (expected) expect(() => assertTransition(from, to)).not.toThrow();
    else {expect(() => assertTransition(from, to)).toThrow(
        expect.objectContaining({ code: 'INVALID_STATE' }) as AppError,
      );}
  });
});

describe('initial status', () => {
  const draft = (variant: keyof typeof ACCOUNT_INFO, ownershipType?: string) => ({
    currency: ACCOUNT_INFO[variant].currency,
    accountInfo: { ...ACCOUNT_INFO[variant].info },
    defaultUmaDepositAccount: false,
    ownershipType,
  });

  test.each<[keyof typeof ACCOUNT_INFO, string | undefined, ExternalAccountStatus]>([
    ['SOLANA_WALLET', 'FIRST_PARTY', 'PENDING_OWNERSHIP_VERIFICATION'],
    ['ETHEREUM_WALLET', 'FIRST_PARTY', 'PENDING_OWNERSHIP_VERIFICATION'],
    ['SOLANA_WALLET', 'THIRD_PARTY', 'ACTIVE'],
    ['SOLANA_WALLET', undefined, 'ACTIVE'],
    ['LIGHTNING', 'FIRST_PARTY', 'ACTIVE'],
    ['USD_ACCOUNT', 'FIRST_PARTY', 'ACTIVE'],
  ])('%s owned %s starts %s', (variant, ownership, status) => {
    expect(initialStatus(draft(variant, ownership))).toBe(status);
  });
});

test('the fingerprint names the destination, not the beneficiary; hex addresses ignore case, base58 does not', () => {
  const usd = ACCOUNT_INFO.USD_ACCOUNT.info;
  expect(accountFingerprint(usd)).toBe('USD_ACCOUNT|routingNumber=021000021|accountNumber=12345678901');
  expect(accountFingerprint({ ...usd, beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Other' } })).toBe(
    accountFingerprint(usd),
  );
  expect(accountFingerprint({ accountType: 'ETHEREUM_WALLET', address: '0xABC' })).toBe(
    accountFingerprint({ accountType: 'ETHEREUM_WALLET', address: '0xabc' }),
  );
  expect(accountFingerprint({ accountType: 'SOLANA_WALLET', address: 'AbC' })).not.toBe(
    accountFingerprint({ accountType: 'SOLANA_WALLET', address: 'abc' }),
  );
});
