import { isCountryCode } from '../../../lib/country-codes';

/**
 * Check-digit rules of bank identifiers. Each `check*` returns the problem, or undefined when the
 * value is valid; format (length, characters) is checked by the caller's pattern first.
 */
const digits = (value: string) => [...value].map(Number);

/** ABA routing number: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function checkAbaRoutingNumber(value: string): string | undefined {
  const d = digits(value);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0 ? undefined : 'is not a valid ABA routing number (check digit mismatch)';
}

/** CLABE: weights 3,7,1 over the first 17 digits, each product mod 10; the 18th is the check digit. */
export function checkClabe(value: string): string | undefined {
  const d = digits(value);
  const weights = [3, 7, 1];
  const sum = d.slice(0, 17).reduce((acc, n, i) => acc + ((n * weights[i % 3]) % 10), 0);
  return (10 - (sum % 10)) % 10 === d[17] ? undefined : 'is not a valid CLABE (check digit mismatch)';
}

/** IBAN: the first four characters moved to the end, letters as 10..35, mod 97 must equal 1. */
export function checkIban(value: string): string | undefined {
  if (!isCountryCode(value.slice(0, 2))) return 'does not start with a country code';
  const rearranged = (value.slice(4) + value.slice(0, 4)).toUpperCase();
  let remainder = 0;
  for (const ch of rearranged) {
    const n = ch >= 'A' ? ch.charCodeAt(0) - 55 : Number(ch);
    remainder = (remainder * (n > 9 ? 100 : 10) + n) % 97;
  }
  return remainder === 1 ? undefined : 'is not a valid IBAN (check digits mismatch)';
}

/** BIC: positions 5-6 are the country of the institution. */
export function checkBic(value: string): string | undefined {
  return isCountryCode(value.slice(4, 6)) ? undefined : 'does not contain a valid country code';
}

function cpfValid(value: string): boolean {
  const d = digits(value);
  if (d.every((n) => n === d[0])) return false;
  const dv = (len: number) => {
    const sum = d.slice(0, len).reduce((acc, n, i) => acc + n * (len + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return dv(9) === d[9] && dv(10) === d[10];
}

function cnpjValid(value: string): boolean {
  const d = digits(value);
  if (d.every((n) => n === d[0])) return false;
  const dv = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const r = d.slice(0, len).reduce((acc, n, i) => acc + n * weights[i], 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return dv(12) === d[12] && dv(13) === d[13];
}

/** Brazilian tax id: a CPF (11 digits) or CNPJ (14 digits) with valid check digits. */
export function checkBrazilianTaxId(value: string): string | undefined {
  if (value.length === 11) return cpfValid(value) ? undefined : 'is not a valid CPF (check digits mismatch)';
  if (value.length === 14) return cnpjValid(value) ? undefined : 'is not a valid CNPJ (check digits mismatch)';
  return 'must be a CPF (11 digits) or a CNPJ (14 digits)';
}

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

const PIX_EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$/;
const PIX_PHONE = /^\+55\d{10,11}$/;
const PIX_RANDOM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A PIX key in the shape its declared type requires. */
export function checkPixKey(type: PixKeyType, value: string): string | undefined {
  switch (type) {
    case 'CPF':
      return /^\d{11}$/.test(value) && cpfValid(value)
        ? undefined
        : 'must be a valid CPF (11 digits) for pixKeyType CPF';
    case 'CNPJ':
      return /^\d{14}$/.test(value) && cnpjValid(value)
        ? undefined
        : 'must be a valid CNPJ (14 digits) for pixKeyType CNPJ';
    case 'EMAIL':
      return PIX_EMAIL.test(value) ? undefined : 'must be an email address for pixKeyType EMAIL';
    case 'PHONE':
      return PIX_PHONE.test(value)
        ? undefined
        : 'must be a Brazilian phone number +55 followed by 10 or 11 digits for pixKeyType PHONE';
    case 'RANDOM':
      return PIX_RANDOM.test(value) ? undefined : 'must be a UUID for pixKeyType RANDOM';
  }
}
