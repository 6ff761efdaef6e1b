import { hkdfSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const AUDIENCE = 'card-reveal';

/**
 * The key signing reveal URLs, derived from the card data key (HKDF-SHA256, its own label): no
 * extra secret to provision, and a URL signature never reuses the sealing key itself.
 */
export function revealSigningKey(cardDataKey: Buffer): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', cardDataKey, Buffer.alloc(0), 'grid card reveal url v1', 32));
}

/** A compact JWS (HS256) naming the reveal record and when it stops loading (whole seconds). */
export function signRevealToken(key: Uint8Array, revealId: string, expiresAt: Date): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(revealId).setAudience(AUDIENCE)
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000)).sign(key);
}

/** The reveal id of a token signed with `key` and not expired at `now`; null for anything else. */
export async function verifyRevealToken(key: Uint8Array, token: string, now: Date): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ['exp', 'sub'],
    });
    return payload.sub ?? null;
  } catch {
    return null;
  }
}
