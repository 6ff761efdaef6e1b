import { toExternalAccountLookupJson } from '../../../../gateway/routes/receiver-routes';
import { httpStatusOf } from '../../../../gateway/http/http-status';
import { isId } from '../../../../lib/ids';
import {
  CUSTOMER,
  CUSTOMER_WITHOUT_ACCOUNTS,
  mxnAccountInfo,
  MXN_ACCOUNT,
  OTHER_PLATFORM,
  OTHER_PLATFORM_ACCOUNT,
  PLATFORM,
  SENDER_UMA,
  UNKNOWN_ACCOUNT,
  UNKNOWN_CUSTOMER,
} from '../test-fixtures/lookup-fixtures';
import { startLookupService } from '../test-fixtures/lookup-service-harness';
import { appErrorOf as failure } from '../../test-fixtures/app-error-of';

const DELETED_CUSTOMER = 'Customer:99999999-9999-4999-8999-999999999999';
let harness: Awaited<ReturnType<typeof startLookupService>>;
const asPlatform = { platformId: PLATFORM, correlationId: 'corr-1' };

beforeAll(async () => {
  harness = await startLookupService();
  harness.accounts.addCustomer(PLATFORM, CUSTOMER, { internalCurrency: 'USD' });
  harness.accounts.addCustomer(PLATFORM, CUSTOMER_WITHOUT_ACCOUNTS);
  harness.accounts.addCustomer(PLATFORM, DELETED_CUSTOMER, { isDeleted: true, internalCurrency: 'USD' });
  harness.accounts.addExternalAccount(PLATFORM, { id: MXN_ACCOUNT, currency: 'MXN', accountInfo: mxnAccountInfo() });
  harness.accounts.addExternalAccount(OTHER_PLATFORM, {
    id: OTHER_PLATFORM_ACCOUNT,
    currency: 'MXN',
    accountInfo: mxnAccountInfo(),
  });
});
afterAll(async () => {
  await harness.stop();
});

test('200: the lookup answers the interface shape and the offer is stored for the quote', async () => {
  const response = await harness.client.lookupExternalAccount({
    accountId: MXN_ACCOUNT,
    customerId: CUSTOMER,
    senderUmaAddress: '',
  }, asPlatform);
  expect(isId('Lookup', response.lookupId)).toBe(true);
  expect(toExternalAccountLookupJson(response)).toEqual({
    supportedCurrencies: [{
      currency: { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
      estimatedExchangeRate: 17.25,
      min: 2000,
      max: 100000000,
    }],
    requiredPayerDataFields: [
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: true },
      { name: 'NATIONALITY', mandatory: false },
    ],
    lookupId: response.lookupId,
    accountId: MXN_ACCOUNT,
  });

  const { lookup } = await harness.client.getLookup({ lookupId: response.lookupId }, asPlatform);
  expect(lookup).toMatchObject({
    lookupId: response.lookupId,
    accountId: MXN_ACCOUNT,
    senderCustomerId: CUSTOMER,
    senderUmaAddress: '',
    senderCurrency: 'USD',
    supportedCurrencies: response.supportedCurrencies,
    requiredPayerDataFields: response.requiredPayerDataFields,
  });
  expect(Date.parse(lookup!.expiresAt) - Date.parse(lookup!.createdAt)).toBe(15 * 60 * 1000);
});

test('200: an UMA sender, and a customer without internal accounts, quote from USD', async () => {
  for (
    const sender of [{ senderUmaAddress: SENDER_UMA, customerId: '' }, {
      senderUmaAddress: '',
      customerId: CUSTOMER_WITHOUT_ACCOUNTS,
    }]
  ) {
    const response = await harness.client.lookupExternalAccount({ accountId: MXN_ACCOUNT, ...sender }, asPlatform);
    expect(response.supportedCurrencies[0].estimatedExchangeRate).toBe(17.25);
    const { lookup } = await harness.client.getLookup({ lookupId: response.lookupId }, asPlatform);
    expect(lookup!.senderCurrency).toBe('USD');
  }
});

test.each([
  ['no sender', { accountId: MXN_ACCOUNT, customerId: '', senderUmaAddress: '' }, ['senderUmaAddress', 'customerId']],
  ['malformed account id', { accountId: 'ExternalAccount:42', customerId: CUSTOMER, senderUmaAddress: '' }, [
    'accountId',
  ]],
  ['account id of another type', { accountId: CUSTOMER, customerId: CUSTOMER, senderUmaAddress: '' }, ['accountId']],
  ['malformed customer id', { accountId: MXN_ACCOUNT, customerId: 'Customer:nope', senderUmaAddress: '' }, [
    'customerId',
  ]],
  ['malformed UMA address', { accountId: MXN_ACCOUNT, customerId: '', senderUmaAddress: 'alice@example.com' }, [
    'senderUmaAddress',
  ]],
])('400 INVALID_INPUT: %s', async (_name, request, fields) => {
  const err = await failure(harness.client.lookupExternalAccount(request, asPlatform));
  expect([err.code, httpStatusOf(err.code)]).toEqual(['INVALID_INPUT', 400]);
  expect((err.details!.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(fields);
});

test.each([
  [
    'an unknown account',
    { accountId: UNKNOWN_ACCOUNT, customerId: CUSTOMER },
    'REFERENCE_NOT_FOUND',
    `External account ${UNKNOWN_ACCOUNT} not found`,
  ],
  [
    "another platform's account",
    { accountId: OTHER_PLATFORM_ACCOUNT, customerId: CUSTOMER },
    'REFERENCE_NOT_FOUND',
    `External account ${OTHER_PLATFORM_ACCOUNT} not found`,
  ],
  [
    'an unknown sender customer',
    { accountId: MXN_ACCOUNT, customerId: UNKNOWN_CUSTOMER },
    'USER_NOT_FOUND',
    `Customer ${UNKNOWN_CUSTOMER} not found`,
  ],
  [
    'a deleted sender customer',
    { accountId: MXN_ACCOUNT, customerId: DELETED_CUSTOMER },
    'USER_NOT_FOUND',
    `Customer ${DELETED_CUSTOMER} not found`,
  ],
])('404: %s', async (_name, request, code, message) => {
  const err = await failure(harness.client.lookupExternalAccount({ senderUmaAddress: '', ...request }, asPlatform));
  expect([err.code, httpStatusOf(err.code), err.message]).toEqual([code, 404, message]);
});

test.each([
  ['Sandbox Unsupported Version', 'UNSUPPORTED_UMA_VERSION', 412],
  ['Sandbox Lookup Failed', 'LOOKUP_REQUEST_FAILED', 400],
  ['Sandbox Pubkey Fetch Error', 'COUNTERPARTY_PUBKEY_FETCH_ERROR', 424],
  ['Sandbox No Compatible Version', 'NO_COMPATIBLE_UMA_VERSION', 424],
  ['Sandbox Lnurlp Failed', 'LNURLP_REQUEST_FAILED', 424],
  ['Sandbox Internal Error', 'INTERNAL_ERROR', 500],
])('beneficiary "%s" → %s (%d)', async (fullName, code, status) => {
  const accountId = harness.accounts.addExternalAccount(PLATFORM, {
    currency: 'MXN',
    accountInfo: mxnAccountInfo(fullName),
  });
  const err = await failure(
    harness.client.lookupExternalAccount({ accountId, customerId: CUSTOMER, senderUmaAddress: '' }, asPlatform),
  );
  expect([err.code, httpStatusOf(err.code)]).toEqual([code, status]);
  expect(err.message).not.toMatch(/sandbox counterparty failed/);
});

test("404 LOOKUP_REQUEST_NOT_FOUND: another platform's lookup", async () => {
  const { lookupId } = await harness.client.lookupExternalAccount({
    accountId: MXN_ACCOUNT,
    customerId: CUSTOMER,
    senderUmaAddress: '',
  }, asPlatform);
  const err = await failure(harness.client.getLookup({ lookupId }, { platformId: OTHER_PLATFORM }));
  expect([err.code, httpStatusOf(err.code)]).toEqual(['LOOKUP_REQUEST_NOT_FOUND', 404]);
});

test('a call without a platform is UNAUTHORIZED', async () => {
  const err = await failure(
    harness.client.lookupExternalAccount({ accountId: MXN_ACCOUNT, customerId: CUSTOMER, senderUmaAddress: '' }),
  );
  expect(err.code).toBe('UNAUTHORIZED');
});

test('503 UNAVAILABLE when the accounts service cannot be reached', async () => {
  const isolated = await startLookupService({ accountsAddress: '127.0.0.1:1' });
  try {
    const err = await failure(
      isolated.client.lookupExternalAccount(
        { accountId: MXN_ACCOUNT, customerId: CUSTOMER, senderUmaAddress: '' },
        asPlatform,
      ),
    );
    expect([err.code, httpStatusOf(err.code)]).toEqual(['UNAVAILABLE', 503]);
  } finally {
    await isolated.stop();
  }
});
