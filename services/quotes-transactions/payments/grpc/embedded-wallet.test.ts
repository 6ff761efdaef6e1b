import { wire } from '../../../../test/fixtures/wire';
import { AppError } from '../../../../lib/errors';
import type { WalletAuthorizer } from '../app/wallet-authorizer';
import {
  asPlatform,
  mxnAccountInfo,
  PLATFORM,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';

/** Stands in for the auth service's signed retry: the stamp "valid" verifies, anything else does not. */
function fakeWallets() {
  const settled = new Map<string, unknown>();
  const wallets: WalletAuthorizer = {
    async challenge(_caller, quoteId) {
      return {
        payloadToSign: JSON.stringify({ type: 'QUOTE_EXECUTE', quoteId }),
        requestId: `Request:${quoteId.slice(6)}`,
      };
    },
    async authorize(_caller, { stamp, requestId }) {
      if (!stamp) throw new AppError('WALLET_SIGNATURE_MISSING', 'Service-Wallet-Signature is required');
      if (stamp !== 'valid') throw new AppError('WALLET_SIGNATURE_INVALID', 'bad stamp');
      return { state: settled.has(requestId!) ? 'SETTLED' : 'CLAIMED', requestId: requestId! };
    },
    async settle(_caller, requestId, outcome) {
      settled.set(requestId, outcome);
    },
  };
  return { wallets, settled };
}

let h: PaymentsHarness;
const fake = fakeWallets();
let wallet: string;
let payee: string;

beforeAll(async () => {
  // Slow settlement: an executed quote stays PROCESSING for the whole file, however loaded the machine.
  h = await startPaymentsHarness({ SANDBOX_SETTLEMENT_STEP_MS: '5000' }, { wallets: fake.wallets });
  const customer = h.accounts.addCustomer(PLATFORM);
  wallet = h.accounts.addInternalAccount(PLATFORM, { currency: 'USDC', customerId: customer, type: 'EMBEDDED_WALLET' });
  payee = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'MXN',
    customerId: customer,
    accountInfo: mxnAccountInfo(),
  });
  await h.sandbox.fundInternalAccount({ accountId: wallet, ...wire({ amount: 500_000_000 }) }, asPlatform);
});
afterAll(async () => {
  await h.stop();
});

const walletQuote = async () =>
  (await h.quotes.createQuote({
    ...wire({
      source: { sourceType: 'ACCOUNT', accountId: wallet },
      destination: { destinationType: 'ACCOUNT', accountId: payee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000_000,
    }),
  }, asPlatform)).quote!;

test('an embedded-wallet quote carries the payload to sign; executing needs the stamp over it', async () => {
  const quote = await walletQuote();
  expect(quote.paymentInstructions).toEqual([{
    accountOrWalletInfo: {
      accountType: 'EMBEDDED_WALLET',
      paymentRails: [],
      payloadToSign: JSON.stringify({ type: 'QUOTE_EXECUTE', quoteId: quote.id }),
    },
  }]);
  const missing = await h.quotes.executeQuote({ quoteId: quote.id }, asPlatform).catch((e) => e);
  expect(missing.code).toBe('WALLET_SIGNATURE_MISSING');
  const invalid = await h.quotes.executeQuote({ quoteId: quote.id, walletSignature: 'forged' }, asPlatform).catch((e) =>
    e
  );
  expect(invalid.code).toBe('WALLET_SIGNATURE_INVALID');
  expect((await h.ledger.getBalances({ accountIds: [wallet] }, asPlatform)).balances[0].available).toBe(500_000_000);

  const { quote: executed } = await h.quotes.executeQuote({ quoteId: quote.id, walletSignature: 'valid' }, asPlatform);
  expect(executed!.status).toBe('PROCESSING');
  expect(fake.settled.get(`Request:${quote.id.slice(6)}`)).toEqual({ transactionId: quote.transactionId });
  expect((await h.ledger.getBalances({ accountIds: [wallet] }, asPlatform)).balances[0].available).toBe(490_000_000);
});

test('the identical signed retry answers the executed quote without a second debit', async () => {
  const quote = await walletQuote();
  await h.quotes.executeQuote({ quoteId: quote.id, walletSignature: 'valid' }, asPlatform);
  const before = (await h.ledger.getBalances({ accountIds: [wallet] }, asPlatform)).balances[0].available;
  const { quote: again } = await h.quotes.executeQuote({ quoteId: quote.id, walletSignature: 'valid' }, asPlatform);
  expect(again).toMatchObject({ id: quote.id, status: 'PROCESSING', transactionId: quote.transactionId });
  expect((await h.ledger.getBalances({ accountIds: [wallet] }, asPlatform)).balances[0].available).toBe(before);
});
