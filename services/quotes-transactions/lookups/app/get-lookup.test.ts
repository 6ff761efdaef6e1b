import { createSandboxCounterparty } from '../adapters/counterparty';
import { createSandboxRateSource } from '../../rates/adapters/rate-source';
import {
  CUSTOMER,
  fakeAccountsDirectory,
  memoryLookupStore,
  MXN_ACCOUNT,
  OTHER_PLATFORM,
  PLATFORM,
} from '../test-fixtures/lookup-fixtures';
import { createGetLookup } from './get-lookup';
import { createLookupExternalAccount } from './lookup-external-account';

async function stored() {
  const store = memoryLookupStore();
  const lookup = createLookupExternalAccount({
    accounts: fakeAccountsDirectory(),
    store,
    counterparty: createSandboxCounterparty(),
    rates: createSandboxRateSource(),
  });
  const made = await lookup({ caller: { platformId: PLATFORM }, accountId: MXN_ACCOUNT, customerId: CUSTOMER });
  return { made, getLookup: createGetLookup({ store }) };
}

test('the stored lookup comes back as offered', async () => {
  const { made, getLookup } = await stored();
  await expect(getLookup({ caller: { platformId: PLATFORM }, lookupId: made.id })).resolves.toEqual(made);
});

test("another platform's lookup is LOOKUP_REQUEST_NOT_FOUND, like a missing one", async () => {
  const { made, getLookup } = await stored();
  await expect(getLookup({ caller: { platformId: OTHER_PLATFORM }, lookupId: made.id })).rejects.toMatchObject({
    code: 'LOOKUP_REQUEST_NOT_FOUND',
    message: `Lookup ${made.id} not found`,
  });
  await expect(getLookup({ caller: { platformId: PLATFORM }, lookupId: 'Lookup:99999999-9999-4999-8999-999999999999' }))
    .rejects.toMatchObject({
      code: 'LOOKUP_REQUEST_NOT_FOUND',
    });
});

test('a malformed lookup id is INVALID_INPUT', async () => {
  const { getLookup } = await stored();
  await expect(getLookup({ caller: { platformId: PLATFORM }, lookupId: 'Quote:1' })).rejects.toMatchObject({
    code: 'INVALID_INPUT',
    details: { errors: [expect.objectContaining({ field: 'lookupId' })] },
  });
});
