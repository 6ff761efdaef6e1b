import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** SHA-256 of the body's canonical JSON (members sorted): what an idempotency key is bound to. */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(body ?? null))).digest('base64url');
}

/** The draft leaves the key's syntax to the server: we take 1 to 255 printable ASCII characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The key of an `Idempotency-Key` header: the draft's Structured Field string (`"abc"`, with `\"`
 * and `\\` escapes) or, as Grid's examples send it, the bare value. Undefined when it is not a
 * valid key (empty, too long, or not printable ASCII).
 */
export function readIdempotencyKey(raw: string): string | undefined {
  const quoted = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(raw);
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : raw;
  if (key.length < 1 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key)) return undefined;
  return key;
}

/** The 400 member of an invalid Idempotency-Key, as every keyed operation reports it. */
export const INVALID_IDEMPOTENCY_KEY = {
  field: 'Idempotency-Key',
  message: `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`,
  constraint: { minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
} as const;
