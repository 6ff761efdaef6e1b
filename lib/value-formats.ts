import { isIP } from 'node:net';
import { isCountryCode } from './country-codes';

/** A calendar date YYYY-MM-DD that exists (no 2023-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** RFC 3339 date-time with an explicit offset (Z or ±hh:mm). */
export function isDateTime(value: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i.exec(
    value,
  );
  return m !== null && isCalendarDate(m[1]) && !Number.isNaN(Date.parse(value));
}

// The HTML5 "valid e-mail address" rule: a local part, then labels of up to 63 characters joined by dots.
const EMAIL_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const EMAIL = new RegExp(`^[a-zA-Z0-9.!#$%&'*+/=?^_\`{|}~-]+@${EMAIL_LABEL}(?:\\.${EMAIL_LABEL})+$`);

export const E164 = /^\+[1-9]\d{1,14}$/;

/** An absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Named formats as FieldConstraint.format reports them, with the check and the message. */
export const FORMAT_CHECKS = {
  email: { test: (v: string) => v.length <= 254 && EMAIL.test(v), message: 'must be a valid email address' },
  date: { test: isCalendarDate, message: 'must be a calendar date YYYY-MM-DD' },
  'date-time': { test: isDateTime, message: 'must be an ISO 8601 date-time with a time zone' },
  'iso3166-1-alpha-2': { test: isCountryCode, message: 'must be an ISO 3166-1 alpha-2 country code' },
  'e.164': { test: (v: string) => E164.test(v), message: 'must be a phone number in E.164 format' },
  ip: { test: (v: string) => isIP(v) !== 0, message: 'must be an IPv4 or IPv6 address' },
  url: { test: isHttpUrl, message: 'must be an absolute http or https URL' },
} as const;

export type FormatName = keyof typeof FORMAT_CHECKS;
