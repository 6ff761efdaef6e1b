import { hpkeOpen } from './hpke';
import { decodeHex } from './decode-hex';
import { generateP256KeyPair, parseP256PublicKey, parseP256PublicKeyBytes } from './p256-keys';
import { loadEnclaveSigningKey } from './enclave-key';
import { WalletCryptoError } from './wallet-crypto-error';

export const OTP_TARGET_BUNDLE_VERSION = 'v1.0.0';

export interface CreateOtpTargetInput {
  /** Hex private key of the enclave signing key (configuration). */
  enclaveSigningPrivateKey: string;
  /** More members of the signed data, after `targetPublic` (an account id, a timestamp). */
  extra?: Record<string, string>;
}

export interface OtpTarget {
  /** `otpEncryptionTargetBundle`: JSON text {version, data, dataSignature, enclaveQuorumPublic}. */
  bundle: string;
  /** Hex; keep it only sealed (see sealForStorage) and for this one challenge. */
  targetPrivateKey: string;
  /** Uncompressed hex, as placed in `data.targetPublic`. */
  targetPublicKey: string;
}

export interface OpenEncryptedOtpBundleInput {
  /** JSON text {encappedPublic, ciphertext} from the client. */
  encryptedOtpBundle: string;
  targetPrivateKey: string;
}

export interface OpenedOtpBundle {
  otpCode: string;
  /** The client's public key from the bundle, normalised to compressed lowercase hex (the stamp form). */
  publicKey: string;
}

const MAX_ENCRYPTED_BUNDLE_LENGTH = 8192;
const MAX_OTP_CODE_LENGTH = 64;
const AES_GCM_TAG_BYTES = 16;

/** Throws WalletCryptoError INVALID_PRIVATE_KEY or INVALID_ARGUMENT. */
export function createOtpTarget({ enclaveSigningPrivateKey, extra = {} }: CreateOtpTargetInput): OtpTarget {
  if (Object.prototype.hasOwnProperty.call(extra, 'targetPublic')) {
    throw new WalletCryptoError('INVALID_ARGUMENT', 'extra must not contain targetPublic');
  }
  const enclaveKey = loadEnclaveSigningKey(enclaveSigningPrivateKey);
  const target = generateP256KeyPair();
  const dataBytes = Buffer.from(JSON.stringify({ targetPublic: target.publicKeyUncompressed, ...extra }), 'utf8');
  const bundle = JSON.stringify({
    version: OTP_TARGET_BUNDLE_VERSION,
    data: dataBytes.toString('hex'),
    dataSignature: enclaveKey.sign(dataBytes),
    enclaveQuorumPublic: enclaveKey.publicKey,
  });
  return { bundle, targetPrivateKey: target.privateKey, targetPublicKey: target.publicKeyUncompressed };
}

function malformed(message: string): WalletCryptoError {
  return new WalletCryptoError('BUNDLE_MALFORMED', message);
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Decrypts `encryptedOtpBundle` (from `encryptOtpCodeToBundle`) with the challenge's target key.
 * Throws WalletCryptoError BUNDLE_MALFORMED, DECRYPTION_FAILED or INVALID_PRIVATE_KEY.
 * The code is returned for a constant-time comparison by the caller (otpCodesMatch).
 */
export async function openEncryptedOtpBundle({
  encryptedOtpBundle,
  targetPrivateKey,
}: OpenEncryptedOtpBundleInput): Promise<OpenedOtpBundle> {
  if (typeof encryptedOtpBundle !== 'string' || encryptedOtpBundle.length > MAX_ENCRYPTED_BUNDLE_LENGTH) {
    throw malformed('encrypted OTP bundle is missing or too large');
  }
  const envelope = parseJsonObject(encryptedOtpBundle);
  if (!envelope) throw malformed('encrypted OTP bundle is not a JSON object');
  const encappedPublic = decodeHex(envelope.encappedPublic);
  const ciphertext = decodeHex(envelope.ciphertext);
  if (!encappedPublic || !ciphertext || ciphertext.length < AES_GCM_TAG_BYTES) {
    throw malformed('encrypted OTP bundle lacks hex encappedPublic or ciphertext');
  }
  try {
    parseP256PublicKeyBytes(encappedPublic);
  } catch {
    throw malformed('encappedPublic is not a P-256 point');
  }

  const plaintext = await hpkeOpen({ encappedPublic, ciphertext, recipientPrivateKey: targetPrivateKey });
  const content = parseJsonObject(Buffer.from(plaintext).toString('utf8'));
  const otpCode = content?.otp_code;
  const publicKey = content?.public_key;
  if (typeof otpCode !== 'string' || otpCode.length === 0 || otpCode.length > MAX_OTP_CODE_LENGTH) {
    throw malformed('decrypted OTP bundle lacks otp_code');
  }
  if (typeof publicKey !== 'string') throw malformed('decrypted OTP bundle lacks public_key');
  try {
    return { otpCode, publicKey: parseP256PublicKey(publicKey).compressed };
  } catch {
    throw malformed('public_key is not a P-256 public key');
  }
}
