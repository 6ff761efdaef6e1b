import type { AppError } from '../../../../lib/errors';
import type { SignedRetryRecord } from '../../domain/wallet-auth/signed-retry-record';
import type { WalletSession } from '../../domain/wallet-auth/wallet-session';
import { turnkeyCrypto } from '../../domain/wallet-crypto/turnkey-client.fixture';
import { checkSigner, parseStampHeader } from './signing-check';
import { stampWith } from './wallet-auth.fixture';

const now = new Date('2026-01-01T00:00:00.000Z');
const key = turnkeyCrypto.generateP256KeyPair();
const payload = '{"type":"ACTIVITY_TYPE_X"}';
const session = (over: Partial<WalletSession> = {}): WalletSession => ({
  id: 'Session:1',
  platformId: 'Platform:1',
  accountId: 'InternalAccount:1',
  credentialId: 'AuthMethod:1',
  type: 'EMAIL_OTP',
  nickname: 'n',
  signingPublicKey: key.publicKey,
  state: 'ACTIVE',
  expiresAt: '2026-01-01T00:10:00.000Z',
  createdAt: '',
  updatedAt: '',
  operationId: 'Operation:1',
  ...over,
});
const record = (signer: SignedRetryRecord['signer']): SignedRetryRecord => ({
  id: 'Request:1',
  platformId: 'Platform:1',
  operation: 'x.y',
  targetId: 't',
  requestHash: 'h',
  payloadToSign: payload,
  signer,
  context: {},
  state: 'ISSUED',
  issuedAt: '',
  expiresAt: '',
});

async function check(signer: SignedRetryRecord['signer'], sessions: WalletSession[], signWith = key, signed = payload) {
  const stamp = parseStampHeader(await stampWith(signWith, signed));
  return checkSigner({
    record: record(signer),
    stamp,
    body: {},
    sessions: { findBySigningKey: async () => sessions },
    now,
  }).then(
    () => 'OK',
    (err: AppError) => err.code,
  );
}

describe('checkSigner', () => {
  const accountRule = { kind: 'session' as const, accountIds: ['InternalAccount:1'] };
  test.each([
    ['an active session of the account', accountRule, [session()], 'OK'],
    ['no session with that key', accountRule, [], 'WALLET_SIGNATURE_INVALID'],
    ['a revoked session', accountRule, [session({ state: 'REVOKED' })], 'WALLET_SIGNATURE_INVALID'],
    ['an expired session', accountRule, [session({ expiresAt: now.toISOString() })], 'WALLET_SIGNATURE_INVALID'],
    [
      'a session of another account',
      accountRule,
      [session({ accountId: 'InternalAccount:2' })],
      'WALLET_SIGNATURE_INVALID',
    ],
    ['a session of another platform', accountRule, [session({ platformId: 'Platform:2' })], 'WALLET_SIGNATURE_INVALID'],
    [
      'revoke: a session of the same credential',
      { ...accountRule, excludeCredentialId: 'AuthMethod:1' },
      [session()],
      'WALLET_SIGNATURE_INVALID',
    ],
    [
      'revoke: a session of another credential',
      { ...accountRule, excludeCredentialId: 'AuthMethod:2' },
      [session()],
      'OK',
    ],
    ['refresh: another session', { ...accountRule, sessionId: 'Session:2' }, [session()], 'WALLET_SIGNATURE_INVALID'],
    ['the bound key', { kind: 'key' as const, publicKey: key.publicKey }, [], 'OK'],
    [
      'another key than the bound one',
      { kind: 'key' as const, publicKey: turnkeyCrypto.generateP256KeyPair().publicKey },
      [],
      'WALLET_SIGNATURE_INVALID',
    ],
  ])('%s: %s', async (_name, signer, sessions, expected) => {
    expect(await check(signer, sessions)).toBe(expected);
  });

  test('a stamp over other bytes (one added space) is refused', async () => {
    expect(await check(accountRule, [session()], key, payload.replace(':', ': '))).toBe('WALLET_SIGNATURE_INVALID');
  });

  test('an unparseable header: WALLET_SIGNATURE_MALFORMED', () => {
    expect(() => parseStampHeader('e30')).toThrow(expect.objectContaining({ code: 'WALLET_SIGNATURE_MALFORMED' }));
  });
});
