import { AppError } from '../../../lib/errors';
import type { Sealer } from '../../../lib/sealing/aes-gcm-sealer';

/**
 * What the use cases need from outside the service's own storage; adapters/ implements each.
 */

/** Seals personal data for storage (authenticated encryption bound to `context`, e.g. the record id). */
export type PiiSealer = Sealer;

export interface WalletProvisioningCommand {
  accountId: string;
  platformId: string;
  customerEmail?: string;
  customerPhone?: string;
}

/** The auth service's wallet set-up: idempotent, creates the default EMAIL_OTP credential. */
export interface WalletProvisioner {
  provision(command: WalletProvisioningCommand): Promise<void>;
}

export interface AccountBalance {
  available: number;
  total: number;
}

/** The owner of internal account balances (the ledger); one batched call per page. */
export interface BalanceSource {
  /** Balances by account id; accounts absent from the answer keep the stored (zero) balance. */
  balancesOf(platformId: string, accountIds: string[]): Promise<Map<string, AccountBalance>>;
  /**
   * Closes the accounts for good, each only while it holds nothing, in the write every credit to
   * it checks (so a concurrent credit and the closing never both succeed); all or none: when
   * some hold funds nothing stays closed and their balances are answered.
   */
  closeAccounts?(
    platformId: string,
    accounts: Array<{ accountId: string; currency: string }>,
  ): Promise<{ closed: boolean; holding: Map<string, AccountBalance> }>;
  reopenAccounts?(platformId: string, accountIds: string[]): Promise<void>;
}

/** The EMAIL_OTP credentials of embedded wallets, and wallet privacy (the auth service). */
export interface WalletCredentials {
  /** Which of these EMBEDDED_WALLET accounts have an active EMAIL_OTP credential. */
  emailOtpAccounts(platformId: string, accountIds: string[]): Promise<string[]>;
  /**
   * Every EMAIL_OTP credential of `accountIds` takes `email`, or none does. Raises
   * EMAIL_OTP_CREDENTIAL_SYNC_FAILED (nothing changed), CONFLICT (the email is another account's)
   * or INVALID_INPUT; SyncOutcomeUnknown when it may or may not have been applied.
   */
  syncEmail(platformId: string, accountIds: string[], email: string): Promise<void>;
  /** `privateEnabled` of each provisioned wallet, by account id. */
  privacyOf(platformId: string, accountIds: string[]): Promise<Map<string, boolean>>;
}

/** The sync call failed without a definite answer (unreachable, deadline): it may have been applied. */
export class SyncOutcomeUnknown extends AppError {
  constructor(cause: unknown) {
    super('EMAIL_OTP_CREDENTIAL_SYNC_FAILED', 'The EMAIL_OTP credentials could not be updated', undefined, { cause });
  }
}

export interface SignedRetryChallenge {
  type?: string;
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
}

/** The `Service-Wallet-Signature` and `Request-Id` headers as received. */
export interface WalletSignature {
  stamp?: string;
  requestId?: string;
}

export interface SignedRequest {
  operation: string;
  targetId: string;
  body: Record<string, unknown>;
}

export type SignedRetryCompletion =
  | { state: 'CLAIMED' | 'PROCESSING'; requestId: string }
  | { state: 'SETTLED'; requestId: string; result: Record<string, unknown> };

export type SignedRetryOutcome = { result: Record<string, unknown> } | { error: { code: string; message: string } };

/**
 * The auth service's signed retry: `complete` answers CLAIMED to exactly one retry, whose
 * caller performs the operation and must `settle` it (identical retries see PROCESSING until then).
 */
export interface SignedRetries {
  begin(
    platformId: string,
    request: SignedRequest & { signerAccountIds: string[]; type?: string; parameters?: Record<string, unknown> },
  ): Promise<SignedRetryChallenge>;
  complete(platformId: string, request: SignedRequest & { signature: WalletSignature }): Promise<SignedRetryCompletion>;
  settle(platformId: string, requestId: string, outcome: SignedRetryOutcome): Promise<void>;
}
