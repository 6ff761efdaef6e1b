import type { Caller } from '../../shared/app/payment-accounts';

/**
 * Authorization of payments from an embedded wallet through the auth service's signed-retry
 * mechanism: the quote carries a payload to sign; executing it needs a stamp over that payload
 * from an active session of the wallet.
 */
export interface WalletAuthorizer {
  challenge(caller: Caller, quoteId: string, accountId: string): Promise<{ payloadToSign: string; requestId: string }>;
  /**
   * Verifies the stamp (WALLET_SIGNATURE_* / REQUEST_ID_* errors). CLAIMED: this call executes and
   * then settles; PROCESSING or SETTLED: an identical signed call already did.
   */
  authorize(
    caller: Caller,
    input: { quoteId: string; accountId: string; stamp?: string; requestId?: string },
  ): Promise<{ state: string; requestId: string }>;
  settle(
    caller: Caller,
    requestId: string,
    outcome: { transactionId: string } | { errorCode: string; errorMessage: string },
  ): Promise<void>;
}
