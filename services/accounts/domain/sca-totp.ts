import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps implement it: SHA-1, 6 digits, 30-second steps, ±1 step accepted. */
const PERIOD_S = 30;
const WINDOW = 1;

export interface TotpSecret {
  /** The raw shared secret, hex. */
  hex: string;
  base32: string;
  uri: string;
}

const totpOf = (secret: Secret, label = 'customer', issuer = 'Grid') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret });

export function newTotpSecret(label: string, issuer: string): TotpSecret {
  const secret = new Secret({ size: 20 });
  return { hex: secret.hex.toLowerCase(), base32: secret.base32, uri: totpOf(secret, label, issuer).toString() };
}

/** The secret as the client threads it back (hex, or base32); undefined when it is neither. */
export function parseTotpSecret(value: string): string | undefined {
  try {
    if (/^[0-9a-f]{40}$/i.test(value)) return value.toLowerCase();
    if (/^[A-Z2-7]{32}=*$/i.test(value)) return Secret.fromBase32(value.toUpperCase()).hex.toLowerCase();
  } catch {
    return undefined;
  }
  return undefined;
}

/** The time step a valid code belongs to, or undefined: the caller refuses a step already used. */
export function totpStepOf(secretHex: string, code: string, now: Date): number | undefined {
  const delta = totpOf(Secret.fromHex(secretHex)).validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  return delta === null ? undefined : Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
}

export const currentTotpStep = (now: Date) => Math.floor(now.getTime() / 1000 / PERIOD_S);
