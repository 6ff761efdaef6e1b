import { referenceProblems } from '../contract/reference-contract';
import { startTestSystem, type TestSystem } from '../system-harness';
import {
  balanceOf,
  expectError,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  payingCustomer,
  transactionWhen,
} from './payments-fixtures';

const RECEIVER = '$maria.mxn@uma.example.com';
const MXN = { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 };

let sys: TestSystem;
let customerId: string;
let usd: string;

beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
  ({ customerId, usdAccountId: usd } = await payingCustomer(sys));
  await fund(sys, usd, 100_000);
});
afterAll(async () => {
  await sys.stop();
});

const lookupUma = (address: string, query = `customerId=${customerId}`) => sys.api(`/receiver/uma/${address}?${query}`);
const umaQuote = (lookupId: string | undefined, amount: number, destination: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: usd },
  destination: { destinationType: 'UMA_ADDRESS', umaAddress: RECEIVER, ...destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...(lookupId ? { lookupId } : {}),
});

test(
  'GET /receiver/uma/{address}: the currencies the receiver '
    + 'takes, with rates, bounds, payer fields and a lookup id',
  async () => {
    const res = await lookupUma(RECEIVER);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      supportedCurrencies: [{ currency: MXN, estimatedExchangeRate: 17.25, min: 2_000, max: 100_000_000 }],
      requiredPayerDataFields: [{ name: 'FULL_NAME', mandatory: true }],
      lookupId: expect.stringMatching(/^Lookup:[0-9a-f-]{36}$/),
      receiverUmaAddress: RECEIVER,
    });
    const encoded = await lookupUma(encodeURIComponent(RECEIVER), 'senderUmaAddress=%24alice%40sender.example');
    expect([encoded.status, encoded.body.receiverUmaAddress]).toEqual([200, RECEIVER]);
  },
);

test.each([
  ['maria@uma.example.com', 400, 'INVALID_UMA_ADDRESS'],
  ['$maria@localhost', 400, 'INVALID_UMA_ADDRESS'],
  ['$sandbox.not.found@uma.example.com', 404, 'UMA_NOT_FOUND'],
  ['$sandbox.unsupported.version@uma.example.com', 412, 'UNSUPPORTED_UMA_VERSION'],
  ['$sandbox.lookup.failed@uma.example.com', 400, 'LOOKUP_REQUEST_FAILED'],
  ['$sandbox.pubkey.fetch.error@uma.example.com', 424, 'COUNTERPARTY_PUBKEY_FETCH_ERROR'],
  ['$sandbox.no.compatible.version@uma.example.com', 424, 'NO_COMPATIBLE_UMA_VERSION'],
  ['$sandbox.lnurlp.failed@uma.example.com', 424, 'LNURLP_REQUEST_FAILED'],
  ['$sandbox.internal.error@uma.example.com', 500, 'INTERNAL_ERROR'],
])('GET /receiver/uma/%s → %d %s', async (address, status, code) => {
  expectError(await lookupUma(address), status, code);
});

test(
  'GET /receiver/uma/{address} without a sender is 400 '
    + 'INVALID_INPUT; an unknown sender customer is 404 USER_NOT_FOUND',
  async () => {
    expectError(await lookupUma(RECEIVER, ''), 400, 'INVALID_INPUT');
    expectError(
      await lookupUma(RECEIVER, 'customerId=Customer:99999999-9999-4999-8999-999999999999'),
      404,
      'USER_NOT_FOUND',
    );
  },
);

test('lookup → quote to the UMA address → execute → the transaction settles', async () => {
  const { lookupId } = (await lookupUma(RECEIVER)).body;
  const quote = await sys.api('/quotes', { method: 'POST', json: umaQuote(lookupId, 10_000) });
  expect(quote.status).toBe(201);
  expect(quote.body).toMatchObject({
    status: 'PENDING',
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: RECEIVER, currency: 'MXN' },
    sendingCurrency: { code: 'USD' },
    receivingCurrency: MXN,
    totalSendingAmount: 10_000,
    totalReceivingAmount: 172_327,
    exchangeRate: 17.25,
  });
  const executed = await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' });
  expect([executed.status, executed.body.status]).toEqual([200, 'PROCESSING']);
  expect(await balanceOf(sys, customerId, usd)).toBe(90_000);

  const settled = await transactionWhen(sys, quote.body.transactionId, (t) => t.status === 'COMPLETED');
  expect(settled).toMatchObject({
    type: 'OUTGOING',
    quoteId: quote.body.id,
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: RECEIVER, currency: 'MXN' },
    sentAmount: { amount: 10_000 },
    receivedAmount: { amount: 172_327, currency: { code: 'MXN' } },
    // The interface: reconciliationInstructions.transactionHash reports the UMA payment's settlement leg.
    reconciliationInstructions: {
      reference: expect.any(String),
      transactionHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    },
  });
  expect(referenceProblems('GET', `/2025-10-13/transactions/${settled.id}`, 200, settled)).toEqual([]);
});

test('a quote to an UMA address needs a lookup of that address, in a currency it offered', async () => {
  expectError(await sys.api('/quotes', { method: 'POST', json: umaQuote(undefined, 10_000) }), 400, 'INVALID_INPUT');
  const other = (await lookupUma('$luis.mxn@uma.example.com')).body.lookupId;
  expectError(await sys.api('/quotes', { method: 'POST', json: umaQuote(other, 10_000) }), 400, 'INVALID_INPUT');
  const account =
    (await sys.api(`/receiver/external-account/${await externalAccount(sys, customerId)}?customerId=${customerId}`))
      .body.lookupId;
  expectError(await sys.api('/quotes', { method: 'POST', json: umaQuote(account, 10_000) }), 400, 'INVALID_INPUT');
  // Addresses match without regard to case.
  const { lookupId } = (await lookupUma('$Maria.MXN@UMA.example.com')).body;
  expectError(
    await sys.api('/quotes', { method: 'POST', json: umaQuote(lookupId, 10_000, { currency: 'EUR' }) }),
    400,
    'INVALID_CURRENCY',
  );
  expectError(await sys.api('/quotes', { method: 'POST', json: umaQuote(lookupId, 50) }), 400, 'AMOUNT_OUT_OF_RANGE');
  expect((await sys.api('/quotes', { method: 'POST', json: umaQuote(lookupId, 10_000) })).status).toBe(201);
});
