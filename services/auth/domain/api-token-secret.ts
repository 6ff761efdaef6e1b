import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API client secrets are stored as HMAC-SHA256(pepper, secret). Secrets we issue carry 256 bits
 * of randomness, so a slow password hash would add cost without adding safety; the pepper (kept
 * outside the database) means a leaked table alone cannot be used to test guesses offline.
 */
export const MIN_SECRET_LENGTH = 16;

export function hashClientSecret(secret: string, pepper: Buffer): string {
  return createHmac('sha256', pepper).update(secret, 'utf8').digest('hex');
}

export function clientSecretMatches(secret: string, storedHash: string, pepper: Buffer): boolean {
  const presented = Buffer.from(hashClientSecret(secret, pepper), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}
