import { createHash } from 'node:crypto';

/**
 * JSON text with object keys sorted at every depth and no whitespace, so two bodies that
 * differ only in key order or formatting have the same text (and the same request hash).
 * `undefined` members are dropped, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** What makes two requests "the same request" for the signed retry. */
export interface RequestIdentity {
  operation: string;
  targetId: string;
  body: unknown;
}

/** Hash of operation, target and canonical body; an absent body counts as `{}`. */
export function requestHash(identity: RequestIdentity): string {
  return sha256Hex(canonicalJson([identity.operation, identity.targetId, identity.body ?? {}]));
}
