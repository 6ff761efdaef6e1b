import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import type { Lookup } from '../domain/lookup';
import { CUSTOMER, MXN_ACCOUNT, OTHER_PLATFORM, PLATFORM } from '../test-fixtures/lookup-fixtures';
import { createLookupDocumentStore, LOOKUPS_COLLECTION } from './lookup-document-store';

const lookup: Lookup = {
  id: 'Lookup:019542f5-b3e7-4d02-8000-000000000009',
  platformId: PLATFORM,
  accountId: MXN_ACCOUNT,
  sender: { customerId: CUSTOMER },
  senderCurrency: 'USD',
  offers: [{
    currency: { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
    estimatedExchangeRate: 17.25,
    min: 2000,
    max: 100000000,
  }],
  requiredPayerDataFields: [{ name: 'FULL_NAME', mandatory: true }],
  createdAt: '2025-10-13T12:00:00.000Z',
  expiresAt: '2025-10-13T12:15:00.000Z',
};

test('a saved lookup reads back whole, keyed by its id', async () => {
  const documents = createEmbeddedDocumentStore();
  const store = createLookupDocumentStore(documents);
  await store.save(lookup);
  await expect(store.find(PLATFORM, lookup.id)).resolves.toEqual(lookup);
  expect(await documents.collection(LOOKUPS_COLLECTION).findOne({ _id: lookup.id })).toMatchObject({
    platformId: PLATFORM,
    accountId: MXN_ACCOUNT,
  });
});

test('a lookup is invisible to another platform and unknown ids are null', async () => {
  const store = createLookupDocumentStore(createEmbeddedDocumentStore());
  await store.save(lookup);
  await expect(store.find(OTHER_PLATFORM, lookup.id)).resolves.toBeNull();
  await expect(store.find(PLATFORM, 'Lookup:019542f5-b3e7-4d02-8000-000000000010')).resolves.toBeNull();
});

test('lookups are forgotten once expired before the horizon, the others kept', async () => {
  const store = createLookupDocumentStore(createEmbeddedDocumentStore());
  await store.ensureIndexes();
  await store.save(lookup);
  const later = { ...lookup, id: 'Lookup:019542f5-b3e7-4d02-8000-000000000011', expiresAt: '2025-10-13T14:00:00.000Z' };
  await store.save(later);
  expect(await store.forgetExpired(new Date('2025-10-13T13:00:00.000Z'))).toBe(1);
  await expect(store.find(PLATFORM, lookup.id)).resolves.toBeNull();
  await expect(store.find(PLATFORM, later.id)).resolves.toEqual(later);
});
