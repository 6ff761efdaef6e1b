import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import { createVolumeDocumentStore, VOLUMES_COLLECTION } from './volume-document-store';

const DAY1 = 'Platform:p/USD/*/2025-10-13';
const CORRIDOR = 'Platform:p/USD/MXN/2025-10-13';
const PAYMENT = 'Transaction:00000000-0000-4000-8000-000000000001';
const OTHER = 'Transaction:00000000-0000-4000-8000-000000000002';

function setup() {
  const store = createEmbeddedDocumentStore();
  const used = async (counter: string) => (await store.collection(VOLUMES_COLLECTION).findOne({ _id: counter }))?.used;
  return { volumes: createVolumeDocumentStore(store), used };
}

test('a release gives back what the payment reserved, on every counter, once', async () => {
  const { volumes, used } = setup();
  await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 });
  await volumes.reserve({ counter: CORRIDOR, paymentId: PAYMENT, amount: 700, limit: 1_000 });
  await volumes.reserve({ counter: DAY1, paymentId: OTHER, amount: 200, limit: 1_000 });
  await volumes.release({ paymentId: PAYMENT, amount: 700 });
  await volumes.release({ paymentId: PAYMENT, amount: 700 });
  expect([await used(DAY1), await used(CORRIDOR)]).toEqual([200, 0]);
});

test('a released payment is not counted again by a late reservation, which still answers true', async () => {
  const { volumes, used } = setup();
  await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 });
  await volumes.release({ paymentId: PAYMENT, amount: 700 });
  expect(await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 })).toBe(true);
  expect(await used(DAY1)).toBe(0);
});

test('releasing a payment that reserved nothing changes nothing; a release makes room for the next payment', async () => {
  const { volumes, used } = setup();
  await volumes.reserve({ counter: DAY1, paymentId: PAYMENT, amount: 700, limit: 1_000 });
  await volumes.release({ paymentId: OTHER, amount: 700 });
  expect(await used(DAY1)).toBe(700);
  expect(await volumes.reserve({ counter: DAY1, paymentId: OTHER, amount: 700, limit: 1_000 })).toBe(false);
  await volumes.release({ paymentId: PAYMENT, amount: 700 });
  expect(await volumes.reserve({ counter: DAY1, paymentId: OTHER, amount: 700, limit: 1_000 })).toBe(true);
});
