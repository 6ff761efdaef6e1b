import { randomBytes } from 'node:crypto';
import { ConfigError, readConfig, setting, whyKeysAreRequired } from '../../lib/config';
import { generateEnclaveSigningKey, loadEnclaveSigningKey } from './domain/wallet-crypto/enclave-key';

const schema = {
  /**
   * P-256 private key signing OTP target bundles (clients pin its public key); required with MONGODB_URI @default
   * generated in DATA_DIR/keys
   */
  WALLET_ENCLAVE_PRIVATE_KEY: setting.optionalHex(32),
  /**
   * AES-256-GCM key for OTP targets and wallet secrets at rest; required with MONGODB_URI @default generated in
   * DATA_DIR/keys
   */
  WALLET_STORAGE_KEY: setting.optionalHex(32),
  /** Embedded wallet provider: delay before an operation settles */
  WALLET_PROVIDER_SETTLE_MS: setting.int(0, 0, 3_600_000),
  /** How often pending wallet operations are settled without a re-send */
  WALLET_RECONCILE_INTERVAL_MS: setting.int(1000, 10, 3_600_000),
  /** Signed-retry challenge lifetime (`expiresAt`) */
  SIGNED_RETRY_TTL_MS: setting.int(300_000, 100, 86_400_000),
  /** Unused, unexpired signed-retry challenges one wallet may hold (429 + Retry-After beyond) */
  SIGNED_RETRY_MAX_PENDING_PER_WALLET: setting.int(20, 1, 100_000),
  /** Unused, unexpired signed-retry challenges one platform may hold (429 + Retry-After beyond) */
  SIGNED_RETRY_MAX_PENDING_PER_PLATFORM: setting.int(1_000, 1, 10_000_000),
  /** How long used challenges answer identical re-sends */
  SIGNED_RETRY_RETENTION_MS: setting.int(7 * 86_400_000, 60_000, 365 * 86_400_000),
  /** Wallet session lifetime */
  WALLET_SESSION_TTL_MS: setting.int(900_000, 1000, 30 * 86_400_000),
  /** Minimum time between two codes of one credential (429 + Retry-After) */
  WALLET_OTP_REISSUE_INTERVAL_MS: setting.int(30_000, 0, 3_600_000),
  /**
   * Sandbox: OTP code 000000, nothing delivered, OIDC signatures not checked @default true with GRID_MODE=sandbox,
   * false with GRID_MODE=production (which refuses true)
   */
  EMBEDDED_WALLET_SANDBOX: setting.sandboxSwitch(),
  /** OIDC issuers accepted for OAUTH credentials (comma-separated) */
  WALLET_OIDC_ALLOWED_ISSUERS: setting.string('https://accounts.google.com,https://appleid.apple.com'),
  /** OIDC audiences accepted (comma-separated); OAUTH is refused until set */
  WALLET_OIDC_ALLOWED_AUDIENCES: setting.string(''),
  /** Passkey relying party ids (comma-separated) */
  WALLET_PASSKEY_RP_IDS: setting.string('localhost'),
  /** Passkey origins (comma-separated) */
  WALLET_PASSKEY_ORIGINS: setting.string('http://localhost:3000'),
  /** Passkey assertions must carry user verification */
  WALLET_PASSKEY_REQUIRE_USER_VERIFICATION: setting.bool(true),
};

const list = (value: string) => value.split(',').map((v) => v.trim()).filter(Boolean);

export interface WalletAuthConfig {
  /** Caps on unused, unexpired signed-retry challenges. */
  pendingSignedRetries: { perWallet: number; perPlatform: number };
  enclavePrivateKey: string;
  /** Uncompressed hex; clients pin it. */
  enclavePublicKey: string;
  /** True when the keys were generated at start (embedded mode without configuration). */
  generatedKeys: boolean;
  storageKey: Uint8Array;
  settleMs: number;
  reconcileIntervalMs: number;
  signedRetryTtlMs: number;
  /** How long used or expired signed retries are kept (identical re-sends are answered meanwhile). */
  signedRetryRetentionMs: number;
  sessionTtlMs: number;
  otpReissueIntervalMs: number;
  sandbox: boolean;
  oidc: { issuers: string[]; audiences: string[] };
  passkey: { rpIds: string[]; origins: string[]; requireUserVerification: boolean };
}

/**
 * Keys must survive restarts whenever the data does (MONGODB_URI): the storage key opens stored
 * OTP targets and wallet secrets, and clients pin the enclave key. Embedded mode generates both.
 */
export function readWalletAuthConfig(env: NodeJS.ProcessEnv): WalletAuthConfig {
  const c = readConfig(schema, env);
  const why = whyKeysAreRequired(env);
  for (const name of ['WALLET_ENCLAVE_PRIVATE_KEY', 'WALLET_STORAGE_KEY'] as const) {
    if (why && !c[name]) throw new ConfigError(name, `is required ${why} (32 bytes of hex)`);
  }
  const enclavePrivateKey = c.WALLET_ENCLAVE_PRIVATE_KEY ?? generateEnclaveSigningKey().privateKey;
  let enclavePublicKey: string;
  try {
    enclavePublicKey = loadEnclaveSigningKey(enclavePrivateKey).publicKey;
  } catch {
    throw new ConfigError('WALLET_ENCLAVE_PRIVATE_KEY', 'is not a P-256 private key');
  }
  return {
    enclavePrivateKey,
    enclavePublicKey,
    generatedKeys: !c.WALLET_ENCLAVE_PRIVATE_KEY || !c.WALLET_STORAGE_KEY,
    storageKey: c.WALLET_STORAGE_KEY ? Buffer.from(c.WALLET_STORAGE_KEY, 'hex') : randomBytes(32),
    settleMs: c.WALLET_PROVIDER_SETTLE_MS,
    reconcileIntervalMs: c.WALLET_RECONCILE_INTERVAL_MS,
    signedRetryTtlMs: c.SIGNED_RETRY_TTL_MS,
    signedRetryRetentionMs: c.SIGNED_RETRY_RETENTION_MS,
    pendingSignedRetries: {
      perWallet: c.SIGNED_RETRY_MAX_PENDING_PER_WALLET,
      perPlatform: c.SIGNED_RETRY_MAX_PENDING_PER_PLATFORM,
    },
    sessionTtlMs: c.WALLET_SESSION_TTL_MS,
    otpReissueIntervalMs: c.WALLET_OTP_REISSUE_INTERVAL_MS,
    sandbox: c.EMBEDDED_WALLET_SANDBOX,
    oidc: { issuers: list(c.WALLET_OIDC_ALLOWED_ISSUERS), audiences: list(c.WALLET_OIDC_ALLOWED_AUDIENCES) },
    passkey: {
      rpIds: list(c.WALLET_PASSKEY_RP_IDS),
      origins: list(c.WALLET_PASSKEY_ORIGINS),
      requireUserVerification: c.WALLET_PASSKEY_REQUIRE_USER_VERIFICATION,
    },
  };
}
