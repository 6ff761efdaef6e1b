import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** SHA-256 of the body's canonical JSON: what an idempotency key is bound to. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(body ?? null))).digest('base64url');
}
