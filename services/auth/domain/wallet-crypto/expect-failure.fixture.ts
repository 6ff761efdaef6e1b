import { isWalletCryptoError, type WalletCryptoFailure } from './wallet-crypto-error';

export function expectFailure(fn: () => unknown, reason: WalletCryptoFailure): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(isWalletCryptoError(caught) ? caught.reason : caught).toBe(reason);
}

export async function expectRejection(promise: Promise<unknown>, reason: WalletCryptoFailure): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(isWalletCryptoError(caught) ? caught.reason : caught).toBe(reason);
}
