import { EXTERNAL_ACCOUNT_TYPE_NAMES, EXTERNAL_ACCOUNT_TYPES } from '../../../lib/contract/external-account-types';
import { checkWalletAddress, decodeBase58, WALLET_ACCOUNT_TYPES, type WalletAccountType } from './wallet-addresses';

test.each<[WalletAccountType, string, string | undefined]>([
  ['ETHEREUM_WALLET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', undefined],
  ['ETHEREUM_WALLET', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', undefined],
  ['ETHEREUM_WALLET', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED', undefined],
  ['ETHEREUM_WALLET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'has an invalid EIP-55 checksum'],
  ['ETHEREUM_WALLET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA', 'must be 0x followed by 40 hexadecimal characters'],
  ['BASE_WALLET', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'must be 0x followed by 40 hexadecimal characters'],
  ['POLYGON_WALLET', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', undefined],
  ['PLASMA_WALLET', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6Fb', 'has an invalid EIP-55 checksum'],
  ['SOLANA_WALLET', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', undefined],
  ['SOLANA_WALLET', '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', undefined],
  ['SOLANA_WALLET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'must be a base58 Solana public key (32 bytes)'],
  ['SOLANA_WALLET', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLt0', 'must be a base58 Solana public key (32 bytes)'],
  ['TRON_WALLET', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', undefined],
  ['TRON_WALLET', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8', 'must be a base58check Tron address starting with T'],
  ['SPARK_WALLET', 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu', undefined],
  [
    'SPARK_WALLET',
    'bc1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    'must be a Spark address (spark1 followed by bech32 characters)',
  ],
  [
    'SPARK_WALLET',
    'spark1bgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    'must be a Spark address (spark1 followed by bech32 characters)',
  ],
])('%s %s', (type, address, problem) => {
  expect(checkWalletAddress(type, address)).toBe(problem);
});

test('base58 keeps leading zero bytes', () => {
  expect(Array.from(decodeBase58('11')!)).toEqual([0, 0]);
  expect(decodeBase58('0OIl')).toBeUndefined();
});

test('the address checks cover every single-address wallet of the table of account types', () => {
  const wallets = EXTERNAL_ACCOUNT_TYPE_NAMES.filter((t) =>
    EXTERNAL_ACCOUNT_TYPES[t].kind === 'WALLET' && t !== 'LIGHTNING'
  );
  expect([...WALLET_ACCOUNT_TYPES].sort()).toEqual(wallets.sort());
});
