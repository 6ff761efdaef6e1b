import {
  compressP256PublicKey,
  deriveP256PublicKey,
  generateP256KeyPair,
  isP256PublicKey,
  parseP256PrivateKey,
  parseP256PublicKey,
  uncompressP256PublicKey,
} from './p256-keys';
import { turnkeyCrypto } from './turnkey-client.fixture';
import { expectFailure } from './expect-failure.fixture';

// The P-256 base point G, which is the public key of private key 1.
const G_X = '6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296';
const G_Y = '4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5';
const G_UNCOMPRESSED = `04${G_X}${G_Y}`;
const G_COMPRESSED = `03${G_X}`;
const ONE = '00'.repeat(31) + '01';
const N = 'ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551';

describe('p256 keys', () => {
  it('converts between compressed and uncompressed forms', () => {
    expect(compressP256PublicKey(G_UNCOMPRESSED)).toBe(G_COMPRESSED);
    expect(uncompressP256PublicKey(G_COMPRESSED)).toBe(G_UNCOMPRESSED);
    expect(parseP256PublicKey(G_COMPRESSED.toUpperCase())).toEqual({
      compressed: G_COMPRESSED,
      uncompressed: G_UNCOMPRESSED,
    });
  });

  it('derives the public key of a private key', () => {
    expect(deriveP256PublicKey(ONE)).toEqual({ compressed: G_COMPRESSED, uncompressed: G_UNCOMPRESSED });
  });

  it('rejects keys of the wrong length, prefix or curve', () => {
    const notOnCurve = `04${G_X}${G_Y.slice(0, -1)}4`;
    for (
      const bad of [
        '',
        'zz',
        G_X, // 32 bytes, no prefix
        `02${G_X}00`, // 34 bytes
        `05${G_X}`, // unknown prefix
        `02${G_X}${G_Y}`, // compressed prefix, uncompressed length
        notOnCurve,
        `0${G_COMPRESSED}`, // odd length
        '00',
      ]
    ) {
      expect(isP256PublicKey(bad)).toBe(false);
      expectFailure(() => parseP256PublicKey(bad), 'INVALID_PUBLIC_KEY');
    }
  });

  it('rejects private keys outside [1, n-1] or not 32 bytes', () => {
    for (const bad of ['00'.repeat(32), N, 'ff'.repeat(32), ONE.slice(2), `${ONE}00`, 'xy'.repeat(32)]) {
      expectFailure(() => parseP256PrivateKey(bad), 'INVALID_PRIVATE_KEY');
    }
    expect(Buffer.from(parseP256PrivateKey(ONE)).toString('hex')).toBe(ONE);
  });

  it('generates key pairs that match the client library', () => {
    const pair = generateP256KeyPair();
    expect(pair.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(pair.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(pair.publicKeyUncompressed).toBe(uncompressP256PublicKey(pair.publicKey));
    expect(Buffer.from(turnkeyCrypto.getPublicKey(pair.privateKey, true)).toString('hex')).toBe(pair.publicKey);
    expect(generateP256KeyPair().privateKey).not.toBe(pair.privateKey);
  });
});
