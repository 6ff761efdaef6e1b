import { secp256k1 } from '@noble/curves/secp256k1';
import { getPubKeyResponse } from '@uma-sdk/core';
import { ConfigError, readConfig, readRunMode, setting } from '../../../../lib/config';
import { selfSignedCertificate } from './self-signed-certificate';

/** This server as an UMA VASP: its domain, its private keys and the public keys it publishes. */
export interface UmaIdentity {
  domain: string;
  /** `http` only for a localhost domain in the sandbox. */
  scheme: 'https' | 'http';
  sandbox: boolean;
  signingKey: Uint8Array;
  encryptionKey: Uint8Array;
  /** The body of `GET /.well-known/lnurlpubkey`. */
  publicKeysJson: string;
}

const DOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

export const isLocalhost = (domain: string) => /^(localhost|127\.0\.0\.1)(:\d+)?$/.test(domain);

function readUmaConfig(env: NodeJS.ProcessEnv) {
  return readConfig({
    /**
     * Our UMA VASP domain: the part after `@` of our customers' UMA addresses, where other VASPs find
     * /.well-known/lnurlp and /.well-known/lnurlpubkey (host[:port]) @default localhost:$PORT in the sandbox; with
     * GRID_MODE=production, unset serves no UMA endpoints and set requires the keys, chains and Lightning node
     */
    UMA_DOMAIN: setting.optionalString(),
    /**
     * UMA signing key: secp256k1 private key, 32 bytes of hex @default generated in DATA_DIR/keys in the sandbox;
     * required with GRID_MODE=production
     */
    UMA_SIGNING_PRIVATE_KEY: setting.optionalHex(32),
    /**
     * UMA encryption key (other VASPs encrypt travel-rule data to it): secp256k1 private key, 32 bytes of hex @default
     * generated in DATA_DIR/keys in the sandbox; required with GRID_MODE=production
     */
    UMA_ENCRYPTION_PRIVATE_KEY: setting.optionalHex(32),
    /**
     * PEM certificate chain (leaf first) of the UMA signing key @default self-signed at start in the sandbox; required
     * with GRID_MODE=production
     */
    UMA_SIGNING_CERT_CHAIN: setting.optionalString(),
    /**
     * PEM certificate chain (leaf first) of the UMA encryption key @default self-signed at start in the sandbox;
     * required with GRID_MODE=production
     */
    UMA_ENCRYPTION_CERT_CHAIN: setting.optionalString(),
  }, env);
}

function domainOf(configured: string | undefined, env: NodeJS.ProcessEnv): string {
  if (!configured) return `localhost:${env.PORT?.trim() || '8080'}`;
  const domain = configured.trim().toLowerCase();
  if (!DOMAIN.test(domain)) throw new ConfigError('UMA_DOMAIN', 'must be a domain name, with an optional :port');
  if (readRunMode(env) === 'production' && isLocalhost(domain)) {
    throw new ConfigError('UMA_DOMAIN', 'cannot be localhost with GRID_MODE=production');
  }
  return domain;
}

function keyOf(name: string, value: string | undefined, env: NodeJS.ProcessEnv): Uint8Array {
  if (value) {
    const key = new Uint8Array(Buffer.from(value, 'hex'));
    if (!secp256k1.utils.isValidSecretKey(key)) throw new ConfigError(name, 'is not a valid secp256k1 private key');
    return key;
  }
  // Nothing is sealed with it: a sandbox process without DATA_DIR/keys (or on MongoDB) may make its own.
  if (readRunMode(env) === 'production') {
    throw new ConfigError(
      name,
      'is required with GRID_MODE=production and UMA_DOMAIN (a secp256k1 private key, 32 bytes of hex)',
    );
  }
  return secp256k1.utils.randomSecretKey();
}

/** The certificate chain setting `name` (its `value`, if set) for a private key of this server's `domain`. */
interface CertificateChainSetting {
  name: string;
  value: string | undefined;
  key: Uint8Array;
  domain: string;
  sandbox: boolean;
}

function chainOf({ name, value, key, domain, sandbox }: CertificateChainSetting): string {
  if (value) return value.replace(/\\n/g, '\n');
  if (!sandbox) {
    throw new ConfigError(
      name,
      'is required with GRID_MODE=production (the PEM certificate chain of the key, leaf first)',
    );
  }
  return selfSignedCertificate({ privateKey: key, commonName: domain, now: new Date() });
}

/** The leaf certificate must certify the configured private key. */
function checkChain(
  name: string,
  keys: ReturnType<typeof getPubKeyResponse>,
  key: Uint8Array,
  encryption: boolean,
): void {
  const published = Buffer.from(encryption ? keys.getEncryptionPubKey() : keys.getSigningPubKey());
  if (!published.equals(Buffer.from(secp256k1.getPublicKey(key, false)))) {
    throw new ConfigError(name, 'does not certify the configured private key (its leaf holds another public key)');
  }
}

/**
 * Reads this server's UMA identity. In the sandbox the keys come from DATA_DIR/keys (or are made
 * for the process) and the certificates are self-signed; in production all come from configuration,
 * and without UMA_DOMAIN the server is no UMA VASP (undefined).
 */
export function readUmaIdentity(env: NodeJS.ProcessEnv): UmaIdentity | undefined {
  const sandbox = readRunMode(env) === 'sandbox';
  const config = readUmaConfig(env);
  if (!sandbox && !config.UMA_DOMAIN) return undefined;
  const domain = domainOf(config.UMA_DOMAIN, env);
  const signingKey = keyOf('UMA_SIGNING_PRIVATE_KEY', config.UMA_SIGNING_PRIVATE_KEY, env);
  const encryptionKey = keyOf('UMA_ENCRYPTION_PRIVATE_KEY', config.UMA_ENCRYPTION_PRIVATE_KEY, env);
  const signingCertChainPem = chainOf({
    name: 'UMA_SIGNING_CERT_CHAIN',
    value: config.UMA_SIGNING_CERT_CHAIN,
    key: signingKey,
    domain,
    sandbox,
  });
  const encryptionCertChainPem = chainOf({
    name: 'UMA_ENCRYPTION_CERT_CHAIN',
    value: config.UMA_ENCRYPTION_CERT_CHAIN,
    key: encryptionKey,
    domain,
    sandbox,
  });
  let keys: ReturnType<typeof getPubKeyResponse>;
  try {
    keys = getPubKeyResponse({ signingCertChainPem, encryptionCertChainPem });
  } catch (err) {
    throw new ConfigError(
      'UMA_SIGNING_CERT_CHAIN',
      `or UMA_ENCRYPTION_CERT_CHAIN is not a PEM certificate chain of EC keys: ${(err as Error).message}`,
    );
  }
  checkChain('UMA_SIGNING_CERT_CHAIN', keys, signingKey, false);
  checkChain('UMA_ENCRYPTION_CERT_CHAIN', keys, encryptionKey, true);
  // The SDK's serializer writes the signing chain under both names; the encryption chain is its own.
  const published = {
    ...JSON.parse(keys.toJsonString()),
    encryptionCertChain: keys.encryptionCertChain?.map((c) => c.raw.toString('hex')),
  };
  return {
    domain,
    sandbox,
    signingKey,
    encryptionKey,
    scheme: sandbox && isLocalhost(domain) ? 'http' : 'https',
    publicKeysJson: JSON.stringify(published),
  };
}
