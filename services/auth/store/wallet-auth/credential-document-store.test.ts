import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { Credential } from '../../domain/wallet-auth/auth-method';
import { CredentialExistsError } from '../../app/wallet-auth/wallet-auth-stores';
import { createCredentialDocumentStore } from './credential-document-store';

let n = 0;
const credential = (over: Partial<Credential>): Credential => ({
  id: `AuthMethod:${++n}`,
  platformId: 'Platform:1',
  accountId: 'InternalAccount:1',
  type: 'EMAIL_OTP',
  nickname: 'a@example.com',
  state: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

async function store() {
  const credentials = createCredentialDocumentStore(createEmbeddedDocumentStore());
  await credentials.ensureIndexes();
  return credentials;
}

describe('unique rules of credentials', () => {
  test.each([
    ['one EMAIL_OTP per account', { type: 'EMAIL_OTP' as const }, { type: 'EMAIL_OTP' as const }],
    ['one SMS_OTP per account', { type: 'SMS_OTP' as const }, { type: 'SMS_OTP' as const }],
    ['one WebAuthn credential id, across accounts', { type: 'PASSKEY' as const, credentialId: 'abc' }, {
      type: 'PASSKEY' as const,
      credentialId: 'abc',
      accountId: 'InternalAccount:2',
    }],
    ['one OAUTH identity per account', { type: 'OAUTH' as const, oauth: { iss: 'i', aud: 'a', sub: 's' } }, {
      type: 'OAUTH' as const,
      oauth: { iss: 'i', aud: 'b', sub: 's' },
    }],
  ])('%s', async (_name, first, second) => {
    const credentials = await store();
    expect(await credentials.insert(credential(first))).toBe(true);
    await expect(credentials.insert(credential(second))).rejects.toBeInstanceOf(CredentialExistsError);
  });

  test.each([
    ['EMAIL_OTP and SMS_OTP side by side', { type: 'EMAIL_OTP' as const }, { type: 'SMS_OTP' as const }],
    ['EMAIL_OTP on two accounts', { type: 'EMAIL_OTP' as const }, {
      type: 'EMAIL_OTP' as const,
      accountId: 'InternalAccount:2',
    }],
    ['two passkeys', { type: 'PASSKEY' as const, credentialId: 'a' }, { type: 'PASSKEY' as const, credentialId: 'b' }],
    ['two OAUTH identities', { type: 'OAUTH' as const, oauth: { iss: 'i', aud: 'a', sub: 's1' } }, {
      type: 'OAUTH' as const,
      oauth: { iss: 'i', aud: 'a', sub: 's2' },
    }],
  ])('allowed: %s', async (_name, first, second) => {
    const credentials = await store();
    expect(await credentials.insert(credential(first))).toBe(true);
    expect(await credentials.insert(credential(second))).toBe(true);
  });

  test('a revoked credential frees its slot; inserting the same id again answers false', async () => {
    const credentials = await store();
    const first = credential({});
    await credentials.insert(first);
    expect(await credentials.insert(first)).toBe(false);
    expect(await credentials.revoke(first.id, new Date())).toBe(true);
    expect(await credentials.revoke(first.id, new Date())).toBe(false);
    expect(await credentials.insert(credential({}))).toBe(true);
    expect(await credentials.listActive('Platform:1', 'InternalAccount:1')).toHaveLength(1);
  });
});
