import { createHash } from 'node:crypto';

/** Sandbox binding of a token to a client key: lowercase hex SHA-256 of the UTF-8 `clientPublicKey` as sent. */
export function oidcNonceFor(clientPublicKey: string): string {
  return createHash('sha256').update(clientPublicKey, 'utf8').digest('hex');
}
