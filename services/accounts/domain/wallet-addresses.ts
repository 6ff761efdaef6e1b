import { keccak_256 } from '@noble/hashes/sha3';
import bs58check from 'bs58check';
import { decodeBech32, hasBech32Charset } from './bech32';

/** Crypto wallet account types that are a single on-chain (or Spark) address. */
export const WALLET_ACCOUNT_TYPES = [
  'BASE_WALLET',
  'ETHEREUM_WALLET',
  'POLYGON_WALLET',
  'PLASMA_WALLET',
  'SOLANA_WALLET',
  'SPARK_WALLET',
  'TRON_WALLET',
] as const;
export type WalletAccountType = (typeof WALLET_ACCOUNT_TYPES)[number];

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const SPARK_PREFIXES = ['spark', 'sparkt', 'sparkrt', 'sparks', 'sparkl'];

/** EIP-55: a mixed-case address must carry the keccak-256 case checksum; all-lower or all-upper has none. */
function checkEvmAddress(address: string): string | undefined {
  if (!EVM_ADDRESS.test(address)) return 'must be 0x followed by 40 hexadecimal characters';
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return undefined;
  const hash = Buffer.from(keccak_256(hex.toLowerCase())).toString('hex');
  for (let i = 0; i < 40; i++) {
    const upper = parseInt(hash[i], 16) >= 8;
    if (/[a-f]/i.test(hex[i]) && (hex[i] === hex[i].toUpperCase()) !== upper) return 'has an invalid EIP-55 checksum';
  }
  return undefined;
}

/** Raw base58 (no checksum) to bytes, or undefined when a character is outside the alphabet. */
export function decodeBase58(value: string): Uint8Array | undefined {
  let n = 0n;
  for (const ch of value) {
    const digit = BASE58_ALPHABET.indexOf(ch);
    if (digit === -1) return undefined;
    n = n * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const ch of value) {
    if (ch !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

function checkSolanaAddress(address: string): string | undefined {
  const bytes = address.length >= 32 && address.length <= 44 ? decodeBase58(address) : undefined;
  return bytes?.length === 32 ? undefined : 'must be a base58 Solana public key (32 bytes)';
}

/** Tron: base58check of 0x41 followed by the 20-byte account id. */
function checkTronAddress(address: string): string | undefined {
  const bytes = bs58check.decodeUnsafe(address);
  return bytes?.length === 21 && bytes[0] === 0x41 ? undefined : 'must be a base58check Tron address starting with T';
}

// Shape only (network prefix, bech32 characters, length): the reference's own example address
// does not carry a valid bech32m checksum, so the checksum is not enforced.
function checkSparkAddress(address: string): string | undefined {
  const lower = address.toLowerCase();
  const sep = lower.lastIndexOf('1');
  const wellFormed = (address === lower || address === address.toUpperCase())
    && SPARK_PREFIXES.includes(lower.slice(0, sep)) && hasBech32Charset(lower) && lower.length - sep - 1 >= 50;
  return wellFormed ? undefined : 'must be a Spark address (spark1 followed by bech32 characters)';
}

/** The problem with `address` for a wallet of `type`, or undefined when it is well formed. */
export function checkWalletAddress(type: WalletAccountType, address: string): string | undefined {
  switch (type) {
    case 'BASE_WALLET':
    case 'ETHEREUM_WALLET':
    case 'POLYGON_WALLET':
    case 'PLASMA_WALLET':
      return checkEvmAddress(address);
    case 'SOLANA_WALLET':
      return checkSolanaAddress(address);
    case 'TRON_WALLET':
      return checkTronAddress(address);
    case 'SPARK_WALLET':
      return checkSparkAddress(address);
  }
}

const BOLT11_PREFIX = /^ln(bc|tb|tbs|bcrt|sb)(\d+[munp]?)?$/;

/** BOLT 11 invoice: bech32 with an `ln<network>[amount]` prefix. */
export function checkBolt11Invoice(invoice: string): string | undefined {
  const decoded = decodeBech32(invoice.replace(/^lightning:/i, ''), 'bech32');
  return decoded && BOLT11_PREFIX.test(decoded.prefix) ? undefined : 'must be a BOLT 11 invoice (lnbc...)';
}

/** BOLT 12 offer: `lno1` then bech32 characters, no checksum; `+` joins split parts. */
export function checkBolt12Offer(offer: string): string | undefined {
  const joined = offer.replace(/\+\s*/g, '').toLowerCase();
  return joined.startsWith('lno1') && joined.length > 4 && hasBech32Charset(joined)
    ? undefined
    : 'must be a BOLT 12 offer (lno1...)';
}

export const LIGHTNING_ADDRESS = /^[a-zA-Z0-9._+-]+@[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$/;
