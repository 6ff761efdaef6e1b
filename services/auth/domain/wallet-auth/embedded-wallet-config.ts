/**
 * A platform's embeddedWalletConfig (reference schema EmbeddedWalletConfig), normalised with
 * the documented defaults. Values out of range fall back to the default instead of failing
 * a sign-in.
 */
export interface EmbeddedWalletConfig {
  appName: string;
  otpLength: number;
  /** Letters and digits instead of digits only. */
  alphanumeric: boolean;
  expirationSeconds: number;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName: string;
  replyToEmailAddress?: string;
}

export const DEFAULT_EMBEDDED_WALLET_CONFIG: EmbeddedWalletConfig = {
  appName: 'Wallet',
  otpLength: 6,
  alphanumeric: false,
  expirationSeconds: 300,
  sendFromEmailSenderName: 'Notifications',
};

const DIGITS = '0123456789';
// Without look-alikes (0/O, 1/I/L) so a code typed from an email is not misread.
const ALPHANUMERIC = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

export function otpAlphabet(config: EmbeddedWalletConfig): string {
  return config.alphanumeric ? ALPHANUMERIC : DIGITS;
}

function intIn(value: unknown, min: number, max: number): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

function text(value: unknown, maxLength = 255): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.length <= maxLength ? value.trim() : undefined;
}

export function normalizeEmbeddedWalletConfig(raw: unknown): EmbeddedWalletConfig {
  const source = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const d = DEFAULT_EMBEDDED_WALLET_CONFIG;
  const from = text(source.sendFromEmailAddress);
  const replyTo = text(source.replyToEmailAddress);
  return {
    appName: text(source.appName) ?? d.appName,
    otpLength: intIn(source.otpLength, 4, 12) ?? d.otpLength,
    alphanumeric: typeof source.alphanumeric === 'boolean' ? source.alphanumeric : d.alphanumeric,
    expirationSeconds: intIn(source.expirationSeconds, 1, 86400) ?? d.expirationSeconds,
    sendFromEmailSenderName: text(source.sendFromEmailSenderName) ?? d.sendFromEmailSenderName,
    ...(from ? { sendFromEmailAddress: from } : {}),
    ...(replyTo ? { replyToEmailAddress: replyTo } : {}),
  };
}

/** The message that carries a code: subject and body, by channel. */
export function otpMessage(
  config: EmbeddedWalletConfig,
  channel: 'EMAIL' | 'SMS',
  code: string,
): { subject: string; body: string } {
  const minutes = Math.max(1, Math.round(config.expirationSeconds / 60));
  const line = `Your ${config.appName} verification code is ${code}. It expires in ${minutes} minute${
    minutes === 1 ? '' : 's'
  }.`;
  if (channel === 'SMS') return { subject: '', body: line };
  const sender = config.sendFromEmailAddress
    ? `From: ${config.sendFromEmailSenderName} <${config.sendFromEmailAddress}>\n`
    : '';
  return {
    subject: `${config.appName} verification code`,
    body: `${sender}${line}\nIf you did not ask for it, ignore this email.`,
  };
}
