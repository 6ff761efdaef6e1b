import type { Request } from 'express';
import type { WalletSignature } from '../../gen/auth/v1/signed_retry';

export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature';
export const REQUEST_ID_HEADER = 'Request-Id';

/** The two signed-retry headers, passed on as received (absent stays absent). */
export function walletSignature(req: Request): WalletSignature {
  const stamp = req.get(WALLET_SIGNATURE_HEADER);
  const requestId = req.get(REQUEST_ID_HEADER);
  return { ...(stamp !== undefined ? { stamp } : {}), ...(requestId !== undefined ? { requestId } : {}) };
}
