import { defined } from './customer-fields';
import type { FieldReader, JsonObject } from './field-reader';
import type { CardTokenization2faConfig, EmbeddedWalletConfig } from './platform-config';

const NAME = { minLength: 1, maxLength: 255 };
const EMAIL = { maxLength: 255, format: 'email' } as const;

/** `embeddedWalletConfig`: OTP shape and expiry, sender and branding of the OTP email. */
export function readEmbeddedWalletConfig(r: FieldReader, body: JsonObject): EmbeddedWalletConfig | undefined {
  const obj = r.object(body, 'embeddedWalletConfig', 'embeddedWalletConfig');
  if (!obj) return undefined;
  const f = (key: string) => `embeddedWalletConfig.${key}`;
  return defined({
    appName: r.string(obj, 'appName', f('appName'), NAME),
    otpLength: r.integer(obj, 'otpLength', f('otpLength'), { min: 4, max: 12 }),
    alphanumeric: r.boolean(obj, 'alphanumeric', f('alphanumeric')),
    expirationSeconds: r.integer(obj, 'expirationSeconds', f('expirationSeconds'), { min: 1, max: 86400 }),
    sendFromEmailAddress: r.string(obj, 'sendFromEmailAddress', f('sendFromEmailAddress'), EMAIL),
    sendFromEmailSenderName: r.string(obj, 'sendFromEmailSenderName', f('sendFromEmailSenderName'), NAME),
    replyToEmailAddress: r.string(obj, 'replyToEmailAddress', f('replyToEmailAddress'), EMAIL),
    logoUrl: r.string(obj, 'logoUrl', f('logoUrl'), { maxLength: 512, format: 'url' }),
  });
}

/** `cardTokenization2faConfig`: branding and sender of card-tokenization codes. */
export function readCardTokenization2faConfig(r: FieldReader, body: JsonObject): CardTokenization2faConfig | undefined {
  const key = 'cardTokenization2faConfig';
  const obj = r.object(body, key, key);
  if (!obj) return undefined;
  const email = r.object(obj, 'email', `${key}.email`);
  const sms = r.object(obj, 'sms', `${key}.sms`);
  const e = (k: string) => `${key}.email.${k}`;
  return defined({
    displayName: r.string(obj, 'displayName', `${key}.displayName`, NAME),
    logoUrl: r.string(obj, 'logoUrl', `${key}.logoUrl`, { maxLength: 512, pattern: /^https:\/\//, format: 'url' }),
    email: email && defined({
      fromAddress: r.string(email, 'fromAddress', e('fromAddress'), EMAIL),
      fromName: r.string(email, 'fromName', e('fromName'), NAME),
      replyToAddress: r.string(email, 'replyToAddress', e('replyToAddress'), EMAIL),
      subject: r.string(email, 'subject', e('subject'), NAME),
      bodyText: r.string(email, 'bodyText', e('bodyText'), { minLength: 1, maxLength: 2000 }),
    }),
    sms: sms && defined({
      templateSid: r.string(sms, 'templateSid', `${key}.sms.templateSid`, { minLength: 1, maxLength: 64 }),
      bodyText: r.string(sms, 'bodyText', `${key}.sms.bodyText`, { minLength: 1, maxLength: 480 }),
    }),
  });
}
