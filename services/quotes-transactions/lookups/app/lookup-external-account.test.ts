import { AppError } from '../../../../lib/errors';
import { isId } from '../../../../lib/ids';
import type { Counterparty } from '../adapters/counterparty';
import { createSandboxCounterparty } from '../adapters/counterparty';
import { createSandboxRateSource, type RateSource } from '../../rates/adapters/rate-source';
import {
  CUSTOMER,
  CUSTOMER_WITHOUT_ACCOUNTS,
  fakeAccountsDirectory,
  memoryLookupStore,
  mxnAccountInfo,
  MXN_ACCOUNT,
  NOW,
  OTHER_PLATFORM_ACCOUNT,
  PLATFORM,
  SENDER_UMA,
  UNKNOWN_ACCOUNT,
  UNKNOWN_CUSTOMER,
} from '../test-fixtures/lookup-fixtures';
import { createLookupExternalAccount } from './lookup-external-account';

const caller = { platformId: PLATFORM };
const MXN = { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 };

function setup(overrides: { counterparty?: Counterparty; rates?: RateSource; customerCurrency?: string } = {}) {
  const accounts = fakeAccountsDirectory(overrides.customerCurrency);
  const store = memoryLookupStore();
  const lookup = createLookupExternalAccount({
    accounts,
    store,
    now: () => NOW,
    counterparty: overrides.counterparty ?? createSandboxCounterparty(),
    rates: overrides.rates ?? createSandboxRateSource(),
  });
  return { accounts, store, lookup };
}

test('a customer sender gets the MXN offer from its primary account currency, and the lookup is stored', async () => {
  const { store, lookup } = setup({ customerCurrency: 'USDC' });
  const result = await lookup({ caller, accountId: MXN_ACCOUNT, customerId: CUSTOMER });
  expect(isId('Lookup', result.id)).toBe(true);
  expect(result).toEqual({
    id: result.id,
    platformId: PLATFORM,
    accountId: MXN_ACCOUNT,
    sender: { customerId: CUSTOMER },
    senderCurrency: 'USDC',
    offers: [{ currency: MXN, estimatedExchangeRate: 17.25, min: 2_000, max: 100_000_000 }],
    requiredPayerDataFields: [
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: true },
      { name: 'NATIONALITY', mandatory: false },
    ],
    createdAt: '2025-10-13T12:00:00.000Z',
    expiresAt: '2025-10-13T12:15:00.000Z',
  });
  expect(store.saved).toEqual([result]);
});

test.each([
  ['an UMA sender', { senderUmaAddress: SENDER_UMA }, 'USD', 17.25],
  ['a customer without internal accounts', { customerId: CUSTOMER_WITHOUT_ACCOUNTS }, 'USD', 17.25],
])('%s quotes from %s', async (_name, sender, currency, rate) => {
  const { lookup } = setup();
  const result = await lookup({ caller, accountId: MXN_ACCOUNT, ...sender });
  expect(result.senderCurrency).toBe(currency);
  expect(result.offers[0].estimatedExchangeRate).toBe(rate);
});

test('a EUR customer gets the EUR→MXN cross rate', async () => {
  const { lookup } = setup({ customerCurrency: 'EUR' });
  const result = await lookup({ caller, accountId: MXN_ACCOUNT, customerId: CUSTOMER });
  expect(result.offers[0].estimatedExchangeRate).toBe(18.75);
});

test.each([
  [
    'an unknown sender customer',
    { accountId: MXN_ACCOUNT, customerId: UNKNOWN_CUSTOMER },
    'USER_NOT_FOUND',
    `Customer ${UNKNOWN_CUSTOMER} not found`,
  ],
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
  ['no sender', { accountId: MXN_ACCOUNT }, 'INVALID_INPUT', 'Invalid lookup parameters'],
])('%s is %s and nothing is stored', async (_name, params, code, message) => {
  const { store, lookup } = setup();
  await expect(lookup({ caller, ...params })).rejects.toMatchObject({ code, message });
  expect(store.saved).toEqual([]);
});

test('a counterparty refusal reaches the caller unchanged', async () => {
  const { accounts, store, lookup } = setup();
  accounts.accounts.get(MXN_ACCOUNT)!.accountInfo = mxnAccountInfo('Sandbox Unsupported Version');
  const err = await lookup({ caller, accountId: MXN_ACCOUNT, customerId: CUSTOMER }).catch((e) => e);
  expect(err).toBeInstanceOf(AppError);
  expect(err.code).toBe('UNSUPPORTED_UMA_VERSION');
  expect(store.saved).toEqual([]);
});

test("the counterparty's own payer-data requests are merged in; unknown, repeated currencies are dropped", async () => {
  const counterparty: Counterparty = {
    async lookup() {
      return {
        currencies: ['MXN', 'XYZ', 'USD', 'MXN'],
        requiredPayerData: [{ name: 'EMAIL', mandatory: true }, { name: 'NATIONALITY', mandatory: true }],
      };
    },
  };
  const { lookup } = setup({ counterparty });
  const result = await lookup({ caller, accountId: MXN_ACCOUNT, senderUmaAddress: SENDER_UMA });
  expect(result.offers.map((o) => [o.currency.code, o.estimatedExchangeRate])).toEqual([['MXN', 17.25], ['USD', 1]]);
  expect(result.requiredPayerDataFields).toEqual([
    { name: 'FULL_NAME', mandatory: true },
    { name: 'BIRTH_DATE', mandatory: true },
    { name: 'NATIONALITY', mandatory: true },
    { name: 'EMAIL', mandatory: true },
  ]);
});

test('an account receiving only currencies outside the catalogue is LOOKUP_REQUEST_FAILED', async () => {
  const counterparty: Counterparty = {
    async lookup() {
      return { currencies: ['CHF'], requiredPayerData: [] };
    },
  };
  const { lookup } = setup({ counterparty });
  await expect(lookup({ caller, accountId: MXN_ACCOUNT, customerId: CUSTOMER })).rejects.toMatchObject({
    code: 'LOOKUP_REQUEST_FAILED',
  });
});

test('a rate that is not > 0 is an internal failure, never offered', async () => {
  const { store, lookup } = setup({
    rates: {
      async rate() {
        return 0;
      },
    },
  });
  const err = await lookup({ caller, accountId: MXN_ACCOUNT, customerId: CUSTOMER }).catch((e) => e);
  expect(err).not.toBeInstanceOf(AppError);
  expect(store.saved).toEqual([]);
});

test('each lookup gets its own id', async () => {
  const { lookup } = setup();
  const a = await lookup({ caller, accountId: MXN_ACCOUNT, customerId: CUSTOMER });
  const b = await lookup({ caller, accountId: MXN_ACCOUNT, customerId: CUSTOMER });
  expect(a.id).not.toBe(b.id);
});
