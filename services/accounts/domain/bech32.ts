/** Bech32 (BIP-173) and bech32m (BIP-350) checksum verification, without the 90-character limit. */
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const CONSTANTS = { bech32: 1, bech32m: 0x2bc830a3 } as const;

export type Bech32Variant = keyof typeof CONSTANTS;

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i];
  }
  return chk >>> 0;
}

function expandPrefix(prefix: string): number[] {
  const out: number[] = [];
  for (const ch of prefix) out.push(ch.charCodeAt(0) >> 5);
  out.push(0);
  for (const ch of prefix) out.push(ch.charCodeAt(0) & 31);
  return out;
}

/** The human-readable prefix and 5-bit data words of a valid string, or undefined. */
export function decodeBech32(value: string, variant: Bech32Variant): { prefix: string; words: number[] } | undefined {
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) return undefined;
  const lower = value.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length) return undefined;
  const prefix = lower.slice(0, sep);
  if (![...prefix].every((ch) => ch.charCodeAt(0) >= 33 && ch.charCodeAt(0) <= 126)) return undefined;
  const words: number[] = [];
  for (const ch of lower.slice(sep + 1)) {
    const w = CHARSET.indexOf(ch);
    if (w === -1) return undefined;
    words.push(w);
  }
  if (polymod([...expandPrefix(prefix), ...words]) !== CONSTANTS[variant]) return undefined;
  return { prefix, words: words.slice(0, -6) };
}

/** True when every character after the `1` separator is a bech32 character (BOLT 12 has no checksum). */
export function hasBech32Charset(value: string): boolean {
  const sep = value.lastIndexOf('1');
  return sep >= 1 && [...value.slice(sep + 1).toLowerCase()].every((ch) => CHARSET.includes(ch));
}
