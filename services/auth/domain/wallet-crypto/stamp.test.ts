import { createPrivateKey, sign } from 'node:crypto';
import { p256 } from '@noble/curves/nist';
import { generateP256KeyPair, type P256KeyPair } from './p256-keys';
import { clearStampKeyCache, parseStamp, STAMP_SCHEME, verifyStamp } from './stamp';
import { ApiKeyStamper } from './turnkey-client.fixture';
import { expectFailure } from './expect-failure.fixture';

const PAYLOAD = '{"requestId":"Request:7c4a8d09-ca37-4d3c-9b6e-1f0f5c2b9a10","type":"EMAIL_OTP"}';

function encodeStamp(body: unknown): string {
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8').toString('base64url');
}

function nodeSignDer(pair: P256KeyPair, payload: string): Buffer {
  const point = Buffer.from(pair.publicKeyUncompressed, 'hex');
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: Buffer.from(pair.privateKey, 'hex').toString('base64url'),
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  return sign('sha256', Buffer.from(payload, 'utf8'), { key, dsaEncoding: 'der' });
}

function expectMalformed(headerValue: string): void {
  expectFailure(() => parseStamp(headerValue), 'STAMP_MALFORMED');
}

describe('stamps from @turnkey/api-key-stamper', () => {
  const pair = generateP256KeyPair();

  it.each(['node', 'purejs'] as const)('verifies a stamp made with the %s signer', async (runtimeOverride) => {
    const stamper = new ApiKeyStamper({
      apiPublicKey: pair.publicKey,
      apiPrivateKey: pair.privateKey,
      runtimeOverride,
    });
    const { stampHeaderValue } = await stamper.stamp(PAYLOAD);
    const stamp = parseStamp(stampHeaderValue);
    expect(stamp.publicKey).toBe(pair.publicKey);
    expect(stamp.scheme).toBe(STAMP_SCHEME);
    expect(stamp.signature).toMatch(/^30[0-9a-f]+$/);
    expect(verifyStamp(stamp, PAYLOAD)).toBe(true);
  });

  it('verifies on a cold key cache and with non-ASCII payloads', async () => {
    const payload = '{"nickname":"Zoë ✓","n":1}';
    const stamper = new ApiKeyStamper({ apiPublicKey: pair.publicKey, apiPrivateKey: pair.privateKey });
    const stamp = parseStamp((await stamper.stamp(payload)).stampHeaderValue);
    clearStampKeyCache();
    expect(verifyStamp(stamp, payload)).toBe(true);
  });

  it('rejects a changed payload, even by one byte of whitespace', async () => {
    const stamper = new ApiKeyStamper({ apiPublicKey: pair.publicKey, apiPrivateKey: pair.privateKey });
    const stamp = parseStamp((await stamper.stamp(PAYLOAD)).stampHeaderValue);
    expect(verifyStamp(stamp, PAYLOAD.replace('EMAIL_OTP', 'SMS_OTP'))).toBe(false);
    expect(verifyStamp(stamp, `${PAYLOAD} `)).toBe(false);
    expect(verifyStamp(stamp, JSON.stringify(JSON.parse(PAYLOAD), null, 1))).toBe(false);
  });

  it("rejects another key's signature under this key", async () => {
    const other = generateP256KeyPair();
    const stamper = new ApiKeyStamper({ apiPublicKey: other.publicKey, apiPrivateKey: other.privateKey });
    const otherStamp = parseStamp((await stamper.stamp(PAYLOAD)).stampHeaderValue);
    const forged = parseStamp(
      encodeStamp({ publicKey: pair.publicKey, scheme: STAMP_SCHEME, signature: otherStamp.signature }),
    );
    expect(verifyStamp(otherStamp, PAYLOAD)).toBe(true);
    expect(verifyStamp(forged, PAYLOAD)).toBe(false);
  });

  it('accepts a high-S signature', () => {
    const der = nodeSignDer(pair, PAYLOAD);
    const parsed = p256.Signature.fromDER(der);
    const highS = parsed.hasHighS() ? parsed : new p256.Signature(parsed.r, p256.CURVE.n - parsed.s);
    const lowS = highS.normalizeS();
    expect(highS.hasHighS()).toBe(true);
    for (const signature of [highS, lowS]) {
      const header = encodeStamp({
        publicKey: pair.publicKey,
        scheme: STAMP_SCHEME,
        signature: Buffer.from(signature.toBytes('der')).toString('hex'),
      });
      expect(verifyStamp(parseStamp(header), PAYLOAD)).toBe(true);
    }
  });

  it('accepts an uncompressed or upper-case public key and reports it compressed', () => {
    const signature = nodeSignDer(pair, PAYLOAD).toString('hex').toUpperCase();
    for (const publicKey of [pair.publicKeyUncompressed, pair.publicKey.toUpperCase()]) {
      const stamp = parseStamp(encodeStamp({ publicKey, scheme: STAMP_SCHEME, signature }));
      expect(stamp.publicKey).toBe(pair.publicKey);
      expect(verifyStamp(stamp, PAYLOAD)).toBe(true);
    }
  });
});

describe('malformed stamps', () => {
  const pair = generateP256KeyPair();
  const signature = nodeSignDer(pair, PAYLOAD).toString('hex');
  const valid = { publicKey: pair.publicKey, scheme: STAMP_SCHEME, signature } as const;

  it('refuses what is not unpadded base64url of a JSON object', () => {
    const header = encodeStamp(valid);
    expectMalformed('');
    expectMalformed('garbage!');
    expectMalformed('not base64url at all');
    expectMalformed(header.slice(0, header.length - 7)); // truncated
    expectMalformed(header.slice(0, 4 * 10 + 1)); // impossible length
    expectMalformed(`${header}==`);
    expectMalformed(encodeStamp('{"publicKey":'));
    expectMalformed(encodeStamp('[1,2,3]'));
    expectMalformed(encodeStamp('null'));
    expectMalformed('A'.repeat(5000));
  });

  it('refuses missing members and the wrong scheme', () => {
    for (const member of ['publicKey', 'scheme', 'signature'] as const) {
      const body: Record<string, unknown> = { ...valid };
      delete body[member];
      expectMalformed(encodeStamp(body));
    }
    expectMalformed(encodeStamp({ ...valid, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1' }));
    expectMalformed(encodeStamp({ ...valid, scheme: 1 }));
  });

  it('refuses bad hex, a non-DER signature and keys that are not P-256 points', () => {
    expectMalformed(encodeStamp({ ...valid, signature: `${signature}z` }));
    expectMalformed(encodeStamp({ ...valid, signature: signature.slice(1) }));
    expectMalformed(encodeStamp({ ...valid, signature: 'ab'.repeat(64) }));
    expectMalformed(encodeStamp({ ...valid, publicKey: pair.publicKey.slice(2) }));
    expectMalformed(encodeStamp({ ...valid, publicKey: `${pair.publicKey}zz` }));
    const notOnCurve = pair.publicKeyUncompressed.slice(0, -2)
      + (pair.publicKeyUncompressed.endsWith('00') ? '01' : '00');
    expectMalformed(encodeStamp({ ...valid, publicKey: notOnCurve }));
  });

  it('returns false instead of throwing for a hand-built stamp with a bad key', () => {
    expect(verifyStamp({ ...valid, publicKey: '02' + '00'.repeat(32) }, PAYLOAD)).toBe(false);
    expect(verifyStamp({ ...valid, signature: 'nothex' }, PAYLOAD)).toBe(false);
  });
});
