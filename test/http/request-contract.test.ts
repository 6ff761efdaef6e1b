import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, expectError, externalAccount, payingCustomer } from './payments-fixtures';

/** Request bodies and queries are checked against our OpenAPI document's schemas by the gateway. */
let sys: TestSystem;
let usd: string;
let mxn: string;
beforeAll(async () => {
  sys = await startTestSystem();
  const payer = await payingCustomer(sys);
  usd = payer.usdAccountId;
  mxn = await externalAccount(sys, payer.customerId, 'MXN_ACCOUNT');
});
afterAll(() => sys.stop());

const post = (path: string, json: unknown) => sys.api(path, { method: 'POST', json });

test('every member the document marks invalid is listed at once, with dot paths and broken constraint', async () => {
  const res = await post('/quotes', {
    ...accountQuote(usd, mxn, 100),
    lockedCurrencySide: 'SIDEWAYS',
    description: 5,
    remittanceInformation: 'r'.repeat(81),
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: 'not-an-uma-address' },
    platformFeeOverride: { platformFixedFee: { amount: 1.5, currency: 'USD' } },
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors).toEqual([
    {
      field: 'destination.umaAddress',
      message: expect.stringMatching(/^must match /),
      constraint: { pattern: expect.any(String) },
    },
    {
      field: 'lockedCurrencySide',
      message: 'must be one of SENDING, RECEIVING',
      constraint: { enum: ['SENDING', 'RECEIVING'] },
    },
    { field: 'description', message: 'must be a string' },
    { field: 'remittanceInformation', message: 'must be at most 80 characters', constraint: { maxLength: 80 } },
    { field: 'platformFeeOverride.platformVariableFeeBps', message: 'is required' },
    {
      field: 'platformFeeOverride.platformFixedFee.amount',
      message: 'must be an integer between 0 and 9000000000000000',
    },
  ]);
});

test('list items are named field[i], and nested members field[i].member', async () => {
  const res = await sys.api('/config', {
    method: 'PATCH',
    json: {
      supportedCurrencies: [{
        currencyCode: 'USD',
        minAmount: 'ten',
        maxAmount: 10,
        requiredCounterpartyFields: [{ name: 'SHOE_SIZE', mandatory: true }],
        enabledTransactionTypes: ['OUTGOING'],
      }],
    },
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors).toEqual([
    { field: 'supportedCurrencies[0].minAmount', message: 'must be an integer between 0 and 9000000000000000' },
    {
      field: 'supportedCurrencies[0].requiredCounterpartyFields[0].name',
      message: expect.stringMatching(/^must be one of FULL_NAME, /),
      constraint: { enum: expect.arrayContaining(['FULL_NAME']) },
    },
  ]);
});

test('formats are checked as the services check them', async () => {
  const res = await post('/customers', {
    ...INDIVIDUAL_CUSTOMER,
    platformCustomerId: 'format-check',
    email: 'jane@',
    birthDate: '1990-02-30',
    address: { line1: 'x', postalCode: '1', country: 'de' },
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors).toEqual([
    { field: 'email', message: 'must be a valid email address', constraint: { format: 'email' } },
    {
      field: 'address.country',
      message: 'must be an ISO 3166-1 alpha-2 country code',
      constraint: { format: 'iso3166-1-alpha-2' },
    },
    { field: 'birthDate', message: 'must be a calendar date YYYY-MM-DD', constraint: { format: 'date' } },
  ]);
});

test('the query is checked too: a parameter given twice is refused', async () => {
  const res = await sys.api('/customers?limit=5&limit=6');
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors).toEqual([{ field: 'limit', message: 'must be a string' }]);
});

test(
  'what is left to the services keeps its own code: a non-positive '
    + 'amount is INVALID_AMOUNT; a fraction is a shape error',
  async () => {
    expectError(await post('/quotes', accountQuote(usd, mxn, -100)), 400, 'INVALID_AMOUNT');
    const fraction = await post('/quotes', accountQuote(usd, mxn, 12.5));
    expectError(fraction, 400, 'INVALID_INPUT');
    expect(fraction.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['lockedCurrencyAmount']);
  },
);

test('members the document does not name are ignored, as the services ignore them', async () => {
  const res = await post('/customers', {
    ...INDIVIDUAL_CUSTOMER,
    platformCustomerId: 'extra-members',
    favouriteColour: 'teal',
  });
  expect(res.status).toBe(201);
  expect(res.body).not.toHaveProperty('favouriteColour');
});

test('a body that is not a JSON object is refused before any route', async () => {
  const res = await post('/transactions/Transaction:00000000-0000-4000-8000-000000000000/cancel', ['x']);
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.message).toBe('Request body must be a JSON object');
});

test("the gateway's shape errors and the service's own rules arrive in one list", async () => {
  // birthDate's type is the gateway's to refuse; a currency the platform does not support is the
  // accounts service's. One request, one 400, both; and nothing was created.
  const before = (await sys.api('/customers?limit=100')).body.data.length;
  const res = await post('/customers', { ...INDIVIDUAL_CUSTOMER, birthDate: 19900115, currencies: ['USD', 'JPY'] });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['birthDate', 'currencies[1]']);
  expect((await sys.api('/customers?limit=100')).body.data.length).toBe(before);
});

test('an update with shape errors of a customer that does not exist still answers the field list', async () => {
  const res = await sys.api('/customers/Customer:00000000-0000-4000-8000-00000000dead', {
    method: 'PATCH',
    json: { customerType: 'INDIVIDUAL', fullName: 7 },
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors).toEqual([{ field: 'fullName', message: 'must be a string' }]);
});
