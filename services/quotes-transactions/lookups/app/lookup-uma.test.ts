import { AppError } from '../../../../lib/errors';
import { isId } from '../../../../lib/ids';
import { createSandboxUmaCounterparty } from '../adapters/sandbox-uma-counterparty';
import { createSandboxRateSource } from '../../rates/adapters/rate-source';
import {
  CUSTOMER,
  fakeAccountsDirectory,
  memoryLookupStore,
  NOW,
  PLATFORM,
  SENDER_UMA,
  UNKNOWN_CUSTOMER,
} from '../test-fixtures/lookup-fixtures';
import { createLookupUma, type UmaCounterparty } from './lookup-uma';

const caller = { platformId: PLATFORM };
const RECEIVER = '$maria.mxn@uma.example.com';

function setup(counterparty: UmaCounterparty = createSandboxUmaCounterparty()) {
  const store = memoryLookupStore();
  const lookupUma = createLookupUma({
    accounts: fakeAccountsDirectory('USD'),
    counterparty,
    rates: createSandboxRateSource(),
    store,
    now: () => NOW,
  });
  return { store, lookupUma };
}

test('an accepted receiver: its currency at the estimated rate, within bounds, stored for the quote', async () => {
  const { store, lookupUma } = setup();
  const lookup = await lookupUma({ caller, receiverUmaAddress: RECEIVER, customerId: CUSTOMER });
  expect(isId('Lookup', lookup.id)).toBe(true);
  expect(lookup).toEqual({
    id: lookup.id,
    platformId: PLATFORM,
    receiverUmaAddress: RECEIVER,
    sender: { customerId: CUSTOMER },
    senderCurrency: 'USD',
    offers: [{
      currency: { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
      estimatedExchangeRate: 17.25,
      min: 2_000,
      max: 100_000_000,
    }],
    requiredPayerDataFields: [{ name: 'FULL_NAME', mandatory: true }],
    createdAt: '2025-10-13T12:00:00.000Z',
    expiresAt: '2025-10-13T12:15:00.000Z',
  });
  expect(store.saved).toEqual([lookup]);
});

test.each([
  [
    'a malformed receiver',
    { receiverUmaAddress: 'maria@uma.example.com', customerId: CUSTOMER },
    'INVALID_UMA_ADDRESS',
  ],
  ['an empty receiver', { receiverUmaAddress: '', customerId: CUSTOMER }, 'INVALID_UMA_ADDRESS'],
  ['a malformed receiver and no sender', { receiverUmaAddress: '$maria', customerId: '' }, 'INVALID_UMA_ADDRESS'],
  ['no sender', { receiverUmaAddress: RECEIVER }, 'INVALID_INPUT'],
  ['a malformed sender address', { receiverUmaAddress: RECEIVER, senderUmaAddress: 'alice' }, 'INVALID_INPUT'],
  ['an unknown sender customer', { receiverUmaAddress: RECEIVER, customerId: UNKNOWN_CUSTOMER }, 'USER_NOT_FOUND'],
  [
    'nobody at the address',
    { receiverUmaAddress: '$sandbox.not.found@uma.example.com', senderUmaAddress: SENDER_UMA },
    'UMA_NOT_FOUND',
  ],
  [
    'a refusing VASP',
    { receiverUmaAddress: '$sandbox.lnurlp.failed@uma.example.com', senderUmaAddress: SENDER_UMA },
    'LNURLP_REQUEST_FAILED',
  ],
])('%s is %s and nothing is stored', async (_name, params, code) => {
  const { store, lookupUma } = setup();
  await expect(lookupUma({ caller, ...params })).rejects.toMatchObject({ code });
  expect(store.saved).toEqual([]);
});

test('a receiver taking only currencies outside the catalogue: LOOKUP_REQUEST_FAILED; a VASP crash: 500', async () => {
  const { lookupUma } = setup({
    async lookupUma() {
      return { currencies: ['CHF'], requiredPayerData: [] };
    },
  });
  await expect(lookupUma({ caller, receiverUmaAddress: RECEIVER, senderUmaAddress: SENDER_UMA })).rejects.toMatchObject(
    { code: 'LOOKUP_REQUEST_FAILED' },
  );
  const crash = await setup().lookupUma({
    caller,
    receiverUmaAddress: '$sandbox.internal.error@x.com',
    senderUmaAddress: SENDER_UMA,
  }).catch((e) => e);
  expect(crash).not.toBeInstanceOf(AppError);
});
