import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from './service-module';

const hex32 = () => randomBytes(32).toString('hex');
// A P-256 private scalar; the curve library is loaded only when a key is made (not on a restart).
// (Not node:crypto's generateKeyPairSync + JWK export: on Node 20 a GC during that export can
// deadlock the thread in the key generation job's destructor; seen in the crash suite.)
const p256Key = () =>
  Buffer.from((require('@noble/curves/nist') as typeof import('@noble/curves/nist')).p256.utils.randomSecretKey())
    .toString('hex');
// A secp256k1 private scalar (UMA's curve).
const secp256k1Key = () =>
  Buffer.from(
    (require('@noble/curves/secp256k1') as typeof import('@noble/curves/secp256k1')).secp256k1.utils.randomSecretKey(),
  ).toString('hex');

/**
 * Keys that seal, sign or hash data the embedded store keeps. When one is not configured, the
 * embedded mode generates it once and keeps it in the data directory, so what was sealed before
 * a restart can still be opened after it (a key made anew per process would orphan that data).
 */
const GENERATED_KEYS: Record<ServiceName, Record<string, () => string>> = {
  auth: { API_SECRET_PEPPER: hex32, WALLET_STORAGE_KEY: hex32, WALLET_ENCLAVE_PRIVATE_KEY: p256Key },
  accounts: { ACCOUNTS_PII_KEY: hex32 },
  'quotes-transactions': {
    STABLECOIN_SECRET_KEY: hex32,
    CARDS_DATA_KEY: hex32,
    UMA_SIGNING_PRIVATE_KEY: secp256k1Key,
    UMA_ENCRYPTION_PRIVATE_KEY: secp256k1Key,
  },
  notifications: { WEBHOOK_SIGNING_PRIVATE_KEY: p256Key },
};

/**
 * Fills `env` with the data directory's keys that the given services use and that are left unset,
 * creating the missing ones (files readable by this user only; their values are never logged).
 * Answers the names it took from the directory.
 */
export function useDataDirectoryKeys(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  services: readonly ServiceName[],
): string[] {
  const wanted = services.flatMap((s) => Object.entries(GENERATED_KEYS[s]));
  if (!wanted.length) return [];
  const folder = join(dataDir, 'keys');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const taken: string[] = [];
  for (const [name, generate] of wanted) {
    if (env[name]?.trim()) continue;
    env[name] = readOrCreate(join(folder, name), generate);
    taken.push(name);
  }
  return taken;
}

/** The key is written whole to a file of its own, then linked into place: a crash never leaves half a key. */
function readOrCreate(file: string, generate: () => string): string {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, generate(), { mode: 0o600, flush: true });
  try {
    linkSync(draft, file);
  } catch (err) {
    // Another process made it first: the loser reads the winner's key.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(file, 'utf8').trim();
}
