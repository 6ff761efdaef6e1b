/**
 * Failures of the wallet-auth cryptography. The app layer maps them to API codes
 * (for example STAMP_MALFORMED to WALLET_SIGNATURE_MALFORMED). Messages never carry
 * key material or the rejected input.
 */
export type WalletCryptoFailure =
  | 'INVALID_PUBLIC_KEY'
  | 'INVALID_PRIVATE_KEY'
  | 'INVALID_ARGUMENT'
  | 'STAMP_MALFORMED'
  | 'BUNDLE_MALFORMED'
  | 'DECRYPTION_FAILED';

export class WalletCryptoError extends Error {
  constructor(
    readonly reason: WalletCryptoFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WalletCryptoError';
  }
}

export function isWalletCryptoError(err: unknown, reason?: WalletCryptoFailure): err is WalletCryptoError {
  return err instanceof WalletCryptoError && (reason === undefined || err.reason === reason);
}
