import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';
import { ConfigError, readConfig, setting } from '../config';

export const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

/** What kafkajs receives as `ssl` and `sasl` (its option names); both absent means plaintext without authentication. */
export interface KafkaSecurity {
  ssl?: ConnectionOptions;
  sasl?: SASLOptions & { mechanism: SaslMechanism; username: string; password: string };
}

const SCHEMA = {
  /**
   * TLS to the Kafka brokers, verified against the system's CAs unless KAFKA_TLS_CA_FILE is set; setting any
   * KAFKA_TLS_*_FILE turns it on
   */
  KAFKA_TLS: setting.bool(false),
  /** PEM file of the CA certificate(s) that signed the brokers' certificates (instead of the system's CAs) */
  KAFKA_TLS_CA_FILE: setting.optionalString(),
  /** PEM file of this client's certificate, for brokers that require mutual TLS (with KAFKA_TLS_KEY_FILE) */
  KAFKA_TLS_CERT_FILE: setting.optionalString(),
  /** PEM file of the private key of KAFKA_TLS_CERT_FILE */
  KAFKA_TLS_KEY_FILE: setting.optionalString(),
  /** SASL authentication to the brokers: `plain` (only over TLS), `scram-sha-256` or `scram-sha-512`; unset: none */
  KAFKA_SASL_MECHANISM: setting.optionalString(),
  /** SASL user name (required with KAFKA_SASL_MECHANISM) */
  KAFKA_SASL_USERNAME: setting.optionalString(),
  /** SASL password (required with KAFKA_SASL_MECHANISM); never logged */
  KAFKA_SASL_PASSWORD: setting.optionalString(),
};

/**
 * The brokers' TLS and SASL settings, checked before anything connects: each file is readable and
 * holds what its name says (certificates parse, the key parses and belongs to the certificate), the
 * mechanism is known and comes with its credentials. Every problem is a ConfigError naming the setting.
 */
export function readKafkaSecurity(env: NodeJS.ProcessEnv): KafkaSecurity {
  const c = readConfig(SCHEMA, env);
  const security: KafkaSecurity = {};
  if (c.KAFKA_TLS || c.KAFKA_TLS_CA_FILE || c.KAFKA_TLS_CERT_FILE || c.KAFKA_TLS_KEY_FILE) {
    security.ssl = { rejectUnauthorized: true };
    if (c.KAFKA_TLS_CA_FILE) security.ssl.ca = certificates('KAFKA_TLS_CA_FILE', c.KAFKA_TLS_CA_FILE);
    if (Boolean(c.KAFKA_TLS_CERT_FILE) !== Boolean(c.KAFKA_TLS_KEY_FILE)) {
      const missing = c.KAFKA_TLS_CERT_FILE ? 'KAFKA_TLS_KEY_FILE' : 'KAFKA_TLS_CERT_FILE';
      throw new ConfigError(
        missing,
        'is required with ' + (c.KAFKA_TLS_CERT_FILE ? 'KAFKA_TLS_CERT_FILE' : 'KAFKA_TLS_KEY_FILE')
          + ' (a client certificate needs its key)',
      );
    }
    if (c.KAFKA_TLS_CERT_FILE && c.KAFKA_TLS_KEY_FILE) {
      const cert = certificates('KAFKA_TLS_CERT_FILE', c.KAFKA_TLS_CERT_FILE);
      const key = privateKey('KAFKA_TLS_KEY_FILE', c.KAFKA_TLS_KEY_FILE);
      if (!new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))) {
        throw new ConfigError('KAFKA_TLS_KEY_FILE', 'is not the private key of the certificate in KAFKA_TLS_CERT_FILE');
      }
      Object.assign(security.ssl, { cert, key });
    }
  }
  if (c.KAFKA_SASL_MECHANISM) {
    const mechanism = c.KAFKA_SASL_MECHANISM.toLowerCase() as SaslMechanism;
    if (!SASL_MECHANISMS.includes(mechanism)) {
      throw new ConfigError(
        'KAFKA_SASL_MECHANISM',
        `must be one of ${SASL_MECHANISMS.join(', ')}, got "${c.KAFKA_SASL_MECHANISM}"`,
      );
    }
    if (!c.KAFKA_SASL_USERNAME) {
      throw new ConfigError('KAFKA_SASL_USERNAME', `is required with KAFKA_SASL_MECHANISM=${mechanism}`);
    }
    if (!c.KAFKA_SASL_PASSWORD) {
      throw new ConfigError('KAFKA_SASL_PASSWORD', `is required with KAFKA_SASL_MECHANISM=${mechanism}`);
    }
    if (mechanism === 'plain' && !security.ssl) {
      throw new ConfigError(
        'KAFKA_SASL_MECHANISM',
        'plain sends the password in clear: turn on TLS '
          + '(KAFKA_TLS=true or KAFKA_TLS_CA_FILE), or use scram-sha-256/512',
      );
    }
    security.sasl = {
      mechanism,
      username: c.KAFKA_SASL_USERNAME,
      password: c.KAFKA_SASL_PASSWORD,
    } as KafkaSecurity['sasl'];
  } else if (c.KAFKA_SASL_USERNAME || c.KAFKA_SASL_PASSWORD) {
    throw new ConfigError(
      'KAFKA_SASL_MECHANISM',
      'is required with KAFKA_SASL_USERNAME/KAFKA_SASL_PASSWORD (plain, scram-sha-256 or scram-sha-512)',
    );
  }
  return security;
}

/** One line for the start log: what protects the connection, without any secret. */
export function describeKafkaSecurity(security: KafkaSecurity): string {
  const tls = !security.ssl ? 'plaintext' : security.ssl.cert ? 'mutual TLS' : 'TLS';
  return security.sasl ? `${tls}, SASL ${security.sasl.mechanism}` : tls;
}

function readable(name: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(name, `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}: ${path})`);
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The file's PEM certificates, each one parsed; at least one. */
export function certificates(name: string, path: string): string {
  const text = readable(name, path);
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (!blocks.length) throw new ConfigError(name, `holds no PEM certificate (${path})`);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      throw new ConfigError(name, `holds a certificate that does not parse (${path})`);
    }
  }
  return blocks.join('\n');
}

export function privateKey(name: string, path: string): string {
  const text = readable(name, path);
  try {
    createPrivateKey(text);
  } catch {
    throw new ConfigError(name, `holds no PEM private key that parses, or it is encrypted (${path})`);
  }
  return text;
}
