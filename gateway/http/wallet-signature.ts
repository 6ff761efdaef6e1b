import type { Request } from 'express';
import type { WalletSignature } from '../../gen/auth/v1/signed_retry';
import { AppError } from '../../lib/errors';

/** The interface's name for the signed-retry stamp. */
export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature';
/** The reference's name for the same stamp: clients generated from Grid's OpenAPI send this one. */
export const GRID_WALLET_SIGNATURE_HEADER = 'Grid-Wallet-Signature';
export const REQUEST_ID_HEADER = 'Request-Id';

/**
 * The stamp under either name. Both present and different is refused (401, as a malformed stamp
 * is): which of the two was signed cannot be told, and the check must not pick one for the client.
 */
export function walletSignatureStamp(req: Request): string | undefined {
  const ours = req.get(WALLET_SIGNATURE_HEADER);
  const grids = req.get(GRID_WALLET_SIGNATURE_HEADER);
  if (ours !== undefined && grids !== undefined && ours !== grids) {
    throw new AppError(
      'WALLET_SIGNATURE_MALFORMED',
      `${WALLET_SIGNATURE_HEADER} and ${GRID_WALLET_SIGNATURE_HEADER} carry different stamps; send one`,
    );
  }
  return ours ?? grids;
}

/** The two signed-retry headers, passed on as received (absent stays absent). */
export function walletSignature(req: Request): WalletSignature {
  const stamp = walletSignatureStamp(req);
  const requestId = req.get(REQUEST_ID_HEADER);
  return { ...(stamp !== undefined ? { stamp } : {}), ...(requestId !== undefined ? { requestId } : {}) };
}
