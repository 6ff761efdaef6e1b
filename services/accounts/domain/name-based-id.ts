import { createHash } from 'node:crypto';
import type { InternalAccountType } from './internal-account';

/** The namespace of every name-based id this service derives. */
const ACCOUNTS_NAMESPACE = 'd763d4f9-c7a8-49ce-9cb6-8039c55291a4';

/** RFC 4122 version 5: SHA-1 of the namespace bytes and the UTF-8 name, with version and variant set. */
export function nameBasedUuid(namespace: string, name: string): string {
  const hash = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The id of the internal account an owner (customer or platform) holds in `currency` of `type`.
 * Derived, not random, so that opening an account can be repeated after a crash without ever
 * opening a second one.
 */
export function internalAccountId(ownerId: string, currency: string, type: InternalAccountType): string {
  return `InternalAccount:${nameBasedUuid(ACCOUNTS_NAMESPACE, `${ownerId}|${currency}|${type}`)}`;
}

const configIds = new Map<string, string>();

/** The id of a platform's configuration (`PlatformConfig:<uuid>`), stable per platform (remembered:
 * every read of a configuration names it). */
export function platformConfigId(platformId: string): string {
  let id = configIds.get(platformId);
  if (id === undefined) {
    if (configIds.size >= 10_000) configIds.clear();
    id = `PlatformConfig:${nameBasedUuid(ACCOUNTS_NAMESPACE, `${platformId}|config`)}`;
    configIds.set(platformId, id);
  }
  return id;
}
