import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { ConfigError, readConfig, setting } from '../config';

/**
 * Webhook endpoints the operator approved: receivers outside the sandbox's rules (on this machine,
 * a private network) that production may deliver to, such as a smoke-test receiver before go-live,
 * and the CA that signed their certificates. Everything else keeps the production rules.
 */
export const TRUSTED_WEBHOOK_SETTINGS = {
  /**
   * Operator-approved webhook endpoints (comma-separated https origins, e.g. `https://receiver.internal:8443`): a
   * platform's endpoint on one of these origins may be on this machine or a private network, even in production; every
   * other endpoint keeps the rules of WEBHOOK_ALLOW_LOCAL_ENDPOINTS
   */
  WEBHOOK_TRUSTED_ENDPOINTS: setting.string(''),
  /**
   * PEM file of the CA (or CAs) that signed the trusted endpoints' certificates, trusted besides the public CAs for
   * those endpoints only
   */
  WEBHOOK_TRUSTED_CA_FILE: setting.optionalString(),
};

export interface TrustedWebhookEndpoints {
  /** Origins (`https://host:port`) exempt from the address rules. */
  origins: string[];
  /** CA certificates for connections to those origins: the public roots and the operator's CA. */
  ca?: string[];
}

function originOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('WEBHOOK_TRUSTED_ENDPOINTS', `lists "${value}", which is not a URL`);
  }
  if (url.protocol !== 'https:') {
    throw new ConfigError('WEBHOOK_TRUSTED_ENDPOINTS', `lists "${value}": trusted endpoints use https too`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.username || url.password) {
    throw new ConfigError(
      'WEBHOOK_TRUSTED_ENDPOINTS',
      `lists "${value}": name an origin (https://host:port), without path, query or credentials`,
    );
  }
  return url.origin;
}

export function readTrustedWebhookEndpoints(env: NodeJS.ProcessEnv): TrustedWebhookEndpoints {
  const settings = readConfig(TRUSTED_WEBHOOK_SETTINGS, env);
  const origins = settings.WEBHOOK_TRUSTED_ENDPOINTS.split(',').map((v) => v.trim()).filter(Boolean).map(originOf);
  if (!settings.WEBHOOK_TRUSTED_CA_FILE) return { origins };
  let pem: string;
  try {
    pem = readFileSync(settings.WEBHOOK_TRUSTED_CA_FILE, 'utf8');
  } catch (err) {
    throw new ConfigError('WEBHOOK_TRUSTED_CA_FILE', `cannot be read: ${(err as Error).message}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError('WEBHOOK_TRUSTED_CA_FILE', 'holds no PEM certificate');
  }
  if (!origins.length) {
    throw new ConfigError('WEBHOOK_TRUSTED_CA_FILE', 'is set but WEBHOOK_TRUSTED_ENDPOINTS lists no endpoint for it');
  }
  return { origins, ca: [...rootCertificates, pem] };
}

/** Whether `url` is on an operator-approved origin. */
export function isTrustedEndpoint(url: string, trusted: readonly string[] | undefined): boolean {
  if (!trusted?.length) return false;
  try {
    return trusted.includes(new URL(url).origin);
  } catch {
    return false;
  }
}
