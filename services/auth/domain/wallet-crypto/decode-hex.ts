const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Strict hex decoding: Buffer.from(s, 'hex') silently stops at the first bad character. */
export function decodeHex(value: unknown): Buffer | undefined {
  if (typeof value !== 'string' || !HEX.test(value)) return undefined;
  return Buffer.from(value, 'hex');
}
