/**
 * What the use cases need from outside the service's own storage; adapters/ implements each.
 */

/** Seals personal data for storage (authenticated encryption bound to `context`, e.g. the record id). */
export interface PiiSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

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
}
