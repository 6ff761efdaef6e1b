import { WALLET_ACCOUNT_TYPES } from './wallet-addresses';

/** Self-custody wallets, whose first-party ownership is verified before unrestricted use. */
export function isSelfCustodyWallet(accountType: string): boolean {
  return (WALLET_ACCOUNT_TYPES as readonly string[]).includes(accountType);
}
