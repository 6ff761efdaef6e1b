import { networkFeeIn, networkFeeOf, FEE_NETWORKS } from './network-fees';

test("a network fee is its USD value in the currency's smallest unit, rounded up", () => {
  const solana = networkFeeOf('SOLANA')!;
  expect(networkFeeIn(solana, 1, 6)).toBe(1_000); // USDC: 0.001000
  expect(networkFeeIn(solana, 1, 2)).toBe(1); // USD: 0.1 cent rounds up to one cent
  expect(networkFeeIn(solana, 17.25, 2)).toBe(2); // MXN: 1.725 centavos → 2
  expect(networkFeeIn(networkFeeOf('BITCOIN')!, 0.00001, 8)).toBe(2_000); // BTC: $2 at 100,000 USD/BTC
  expect(networkFeeIn(networkFeeOf('SPARK')!, 1, 6)).toBe(0);
});

test('every network a wallet can settle on has a fee', () => {
  for (const n of ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK']) {
    expect(FEE_NETWORKS).toContain(n);
  }
  expect(networkFeeOf('DOGECHAIN')).toBeUndefined();
});
