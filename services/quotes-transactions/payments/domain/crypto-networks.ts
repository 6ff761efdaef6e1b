/** The network an external wallet settles on; undefined for bank accounts and Lightning (off-chain). */
const NETWORK_BY_ACCOUNT_TYPE: Readonly<Record<string, string>> = {
  SOLANA_WALLET: 'SOLANA',
  ETHEREUM_WALLET: 'ETHEREUM',
  BASE_WALLET: 'BASE',
  POLYGON_WALLET: 'POLYGON',
  TRON_WALLET: 'TRON',
  PLASMA_WALLET: 'PLASMA',
  SPARK_WALLET: 'SPARK',
};

export function cryptoNetworkOf(accountType: string): string | undefined {
  return NETWORK_BY_ACCOUNT_TYPE[accountType];
}

/** Networks a realtime-funding source may name; LIGHTNING settles off-chain. */
export const FUNDING_NETWORKS = [
  'SOLANA',
  'ETHEREUM',
  'BASE',
  'POLYGON',
  'TRON',
  'PLASMA',
  'SPARK',
  'LIGHTNING',
  'BITCOIN',
] as const;
