import type { AccountInfoReader } from './bank-account-info';
import { readBeneficiary } from './beneficiary-fields';
import { defined } from './customer-fields';
import {
  checkBolt11Invoice, checkBolt12Offer, checkWalletAddress, LIGHTNING_ADDRESS, WALLET_ACCOUNT_TYPES, type WalletAccountType,
} from './wallet-addresses';

const STABLECOINS = ['USDC', 'USDT'];

/** Which assets each wallet type can receive. */
const WALLET_CURRENCIES: Record<WalletAccountType, string[]> = {
  BASE_WALLET: STABLECOINS,
  ETHEREUM_WALLET: STABLECOINS,
  POLYGON_WALLET: STABLECOINS,
  PLASMA_WALLET: STABLECOINS,
  SOLANA_WALLET: STABLECOINS,
  TRON_WALLET: STABLECOINS,
  SPARK_WALLET: ['BTC'],
};

function walletReader(type: WalletAccountType): AccountInfoReader {
  return (r, info) => defined({
    accountType: type,
    address: r.string(info, 'address', 'accountInfo.address', { minLength: 1, maxLength: 128, required: true, check: (v) => checkWalletAddress(type, v) }),
    beneficiary: readBeneficiary(r, info, { required: false }),
  });
}

const LIGHTNING_DESTINATIONS = ['invoice', 'bolt12', 'lightningAddress'] as const;

/** Lightning: exactly one of a BOLT 11 invoice, a BOLT 12 offer or a lightning address. */
const readLightning: AccountInfoReader = (r, info) => {
  const given = LIGHTNING_DESTINATIONS.filter((key) => info[key] !== undefined);
  if (given.length !== 1) {
    r.fail('accountInfo', `exactly one of ${LIGHTNING_DESTINATIONS.join(', ')} is required`);
  }
  return defined({
    accountType: 'LIGHTNING',
    invoice: r.string(info, 'invoice', 'accountInfo.invoice', { minLength: 1, maxLength: 4096, check: checkBolt11Invoice }),
    bolt12: r.string(info, 'bolt12', 'accountInfo.bolt12', { minLength: 1, maxLength: 4096, check: checkBolt12Offer }),
    lightningAddress: r.string(info, 'lightningAddress', 'accountInfo.lightningAddress', { maxLength: 320, pattern: LIGHTNING_ADDRESS }),
  });
};

/** Crypto variants by `accountType`, with the currencies each can hold. */
export const WALLET_INFO_TYPES: Record<string, { currencies: string[]; read: AccountInfoReader }> = {
  ...Object.fromEntries(WALLET_ACCOUNT_TYPES.map((type) => [type, { currencies: WALLET_CURRENCIES[type], read: walletReader(type) }])),
  LIGHTNING: { currencies: ['BTC'], read: readLightning },
};

/** Self-custody wallets, whose first-party ownership is verified before unrestricted use. */
export function isSelfCustodyWallet(accountType: string): boolean {
  return (WALLET_ACCOUNT_TYPES as readonly string[]).includes(accountType);
}
