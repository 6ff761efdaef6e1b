import { randomBytes } from 'node:crypto';
import { expectFailure } from './expect-failure.fixture';
import { openFromStorage, sealForStorage } from './seal-for-storage';

describe('sealing secrets for storage', () => {
  const storageKey = randomBytes(32);
  const secret = 'c0ffee'.repeat(10) + 'abcd';
  const associatedData = 'AuthMethod:6d1f0f52-1c1e-4a47-9d3b-2b2f1d4f7a10/challenge-3';

  it('round-trips, with a fresh IV each time', () => {
    const sealed = sealForStorage({ plaintext: secret, storageKey, associatedData });
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret);
    expect(sealForStorage({ plaintext: secret, storageKey, associatedData })).not.toBe(sealed);
    expect(openFromStorage({ sealed, storageKey, associatedData })).toBe(secret);
  });

  it('fails with another key, other associated data or a tampered value', () => {
    const sealed = sealForStorage({ plaintext: secret, storageKey, associatedData });
    expectFailure(() => openFromStorage({ sealed, storageKey: randomBytes(32), associatedData }), 'DECRYPTION_FAILED');
    expectFailure(
      () => openFromStorage({ sealed, storageKey, associatedData: 'another challenge' }),
      'DECRYPTION_FAILED',
    );
    expectFailure(() => openFromStorage({ sealed, storageKey }), 'DECRYPTION_FAILED');
    for (const offset of [0, 12, -1]) {
      const raw = Buffer.from(sealed.slice(3), 'base64url');
      raw[offset < 0 ? raw.length + offset : offset] ^= 1;
      const tampered = `v1.${raw.toString('base64url')}`;
      expectFailure(() => openFromStorage({ sealed: tampered, storageKey, associatedData }), 'DECRYPTION_FAILED');
    }
    expectFailure(
      () => openFromStorage({ sealed: 'v2.' + sealed.slice(3), storageKey, associatedData }),
      'DECRYPTION_FAILED',
    );
    expectFailure(() => openFromStorage({ sealed: 'v1.AAAA', storageKey, associatedData }), 'DECRYPTION_FAILED');
  });

  it('requires a 32-byte key', () => {
    expectFailure(() => sealForStorage({ plaintext: secret, storageKey: randomBytes(16) }), 'INVALID_ARGUMENT');
    expectFailure(() => openFromStorage({ sealed: 'v1.AAAA', storageKey: randomBytes(31) }), 'INVALID_ARGUMENT');
  });
});
