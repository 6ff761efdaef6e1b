import { keccak_256 } from '@noble/hashes/sha3';
import { evmWallet } from '../test-fixtures/evm-wallet';
import {
  personalSignDigest,
  recoverPersonalSignAddress,
  SANDBOX_INVALID_SIGNATURE,
  signatureProvesOwnership,
} from './ownership-signature';

describe('EIP-191 personal_sign', () => {
  // The web3.js documentation example: eth.accounts.sign('Some data', '0x4c0883a6...').
  const WEB3_ADDRESS = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
  const WEB3_SIGNATURE = '0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd'
    + '6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c';

  test('the digest and recovered address of a published vector', () => {
    expect(Buffer.from(personalSignDigest('Some data')).toString('hex')).toBe(
      '1da44b586eb0729ff70a73c326926f6ed5a25f5b056e7f47fbc6e58d86871655',
    );
    expect(recoverPersonalSignAddress('Some data', WEB3_SIGNATURE)).toBe(WEB3_ADDRESS);
  });

  test('a wallet proves ownership of its own address, in any letter case, with v as 27/28 or 0/1', () => {
    const wallet = evmWallet();
    const signature = wallet.personalSign('I verify that I control this wallet');
    expect(
      signatureProvesOwnership(
        'ETHEREUM_WALLET',
        wallet.checksumAddress,
        'I verify that I control this wallet',
        signature,
      ),
    ).toBe(true);
    const v = parseInt(signature.slice(-2), 16) - 27;
    expect(recoverPersonalSignAddress('I verify that I control this wallet', `${signature.slice(0, -2)}0${v}`)).toBe(
      wallet.address,
    );
  });

  test.each([
    [
      'another message',
      (w: ReturnType<typeof evmWallet>) => ({
        address: w.address,
        message: 'other',
        signature: w.personalSign('signed'),
      }),
    ],
    [
      'another address',
      (w: ReturnType<typeof evmWallet>) => ({
        address: evmWallet().address,
        message: 'signed',
        signature: w.personalSign('signed'),
      }),
    ],
    ['not hex', (w: ReturnType<typeof evmWallet>) => ({ address: w.address, message: 'signed', signature: 'zz' })],
    [
      '64 bytes',
      (w: ReturnType<typeof evmWallet>) => ({
        address: w.address,
        message: 'signed',
        signature: w.personalSign('signed').slice(0, -2),
      }),
    ],
    [
      'recovery id 5',
      (w: ReturnType<typeof evmWallet>) => ({
        address: w.address,
        message: 'signed',
        signature: `${w.personalSign('signed').slice(0, -2)}20`,
      }),
    ],
  ])('%s does not prove ownership', (_name, make) => {
    const { address, message, signature } = make(evmWallet());
    expect(signatureProvesOwnership('BASE_WALLET', address, message, signature)).toBe(false);
  });

  test('the digest is keccak-256 over the prefix with the UTF-8 byte length', () => {
    const message = 'é';
    const expected = keccak_256(Buffer.concat([Buffer.from('\x19Ethereum Signed Message:\n2'), Buffer.from(message)]));
    expect(personalSignDigest(message)).toEqual(expected);
  });
});

describe('simulated check (non-EVM wallets)', () => {
  test('accepts any signature but the sandbox magic value', () => {
    expect(signatureProvesOwnership('SOLANA_WALLET', 'addr', 'message', '5h1dJ...')).toBe(true);
    expect(signatureProvesOwnership('SPARK_WALLET', 'addr', 'message', ` ${SANDBOX_INVALID_SIGNATURE.toUpperCase()} `))
      .toBe(false);
  });
});
