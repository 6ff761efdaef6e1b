import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { personalSignDigest } from '../domain/ownership-signature';

function checksum(address: string): string {
  const hex = address.slice(2);
  const hash = Buffer.from(keccak_256(hex)).toString('hex');
  return `0x${[...hex].map((c, i) => (parseInt(hash[i], 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}

/** A fresh EVM key pair that signs like a wallet's personal_sign (r‖s‖v, v = 27 or 28). */
export function evmWallet() {
  const privateKey = secp256k1.utils.randomPrivateKey();
  const publicKey = secp256k1.getPublicKey(privateKey, false).subarray(1);
  const address = `0x${Buffer.from(keccak_256(publicKey).subarray(12)).toString('hex')}`;
  return {
    address,
    checksumAddress: checksum(address),
    personalSign(message: string): string {
      const sig = secp256k1.sign(personalSignDigest(message), privateKey);
      return `0x${sig.toCompactHex()}${(27 + sig.recovery).toString(16)}`;
    },
  };
}
