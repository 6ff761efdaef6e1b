import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';

const EVM_WALLETS = ['BASE_WALLET', 'ETHEREUM_WALLET', 'POLYGON_WALLET', 'PLASMA_WALLET'];
/** The simulated check (sandbox) refuses exactly this signature, so a failure can be produced. */
export const SANDBOX_INVALID_SIGNATURE = 'sandbox-invalid-signature';

/** Whether the wallet's signature can be checked cryptographically (EIP-191), not only simulated. */
export function hasSignatureCheck(accountType: string): boolean {
  return EVM_WALLETS.includes(accountType);
}

/** EIP-191 `personal_sign` digest: keccak-256 of the prefix, the byte length and the UTF-8 message. */
export function personalSignDigest(message: string): Uint8Array {
  const bytes = Buffer.from(message, 'utf8');
  return keccak_256(Buffer.concat([Buffer.from(`\x19Ethereum Signed Message:\n${bytes.length}`, 'utf8'), bytes]));
}

/** The lowercase 0x address that produced a 65-byte r‖s‖v signature over `message`, or undefined. */
export function recoverPersonalSignAddress(message: string, signature: string): string | undefined {
  const hex = signature.startsWith('0x') ? signature.slice(2) : signature;
  if (!/^[0-9a-fA-F]{130}$/.test(hex)) return undefined;
  const v = parseInt(hex.slice(128), 16);
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return undefined;
  try {
    const point = secp256k1.Signature.fromCompact(hex.slice(0, 128)).addRecoveryBit(recovery).recoverPublicKey(
      personalSignDigest(message),
    );
    const publicKey = point.toRawBytes(false).subarray(1);
    return `0x${Buffer.from(keccak_256(publicKey).subarray(12)).toString('hex')}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether `signature` proves control of `address` over `message`: EVM wallets by EIP-191
 * recovery; other chains by the sandbox simulation (any signature but the magic one).
 */
export function signatureProvesOwnership(
  accountType: string,
  address: string,
  message: string,
  signature: string,
): boolean {
  if (hasSignatureCheck(accountType)) return recoverPersonalSignAddress(message, signature) === address.toLowerCase();
  return signature.trim() !== '' && signature.trim().toLowerCase() !== SANDBOX_INVALID_SIGNATURE;
}
