import { newEvent } from '../../../lib/bus/outbox';
import { AppError } from '../../../lib/errors';
import { silentLogger } from '../../../lib/log';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import type { Customer } from '../domain/customer';
import { createImportStore } from '../store/bulk-import-store';
import { createBulkImport } from './bulk-import';
import type { Customers } from './customers';

const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';
const HEADER = 'platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country';
const row = (id: string) => `${id},INDIVIDUAL,Person ${id},1990-01-15,1 Main St,Austin,TX,78701,US`;

/** Customers by platformCustomerId; `crashAfterCreate` makes the next create store its customer and then fail. */
function fakeCustomers(clock: () => Date) {
  const byPlatformId = new Map<string, Customer>();
  let crashAfterCreate = false;
  const customers = {
    async create(_platformId: string, body: unknown) {
      const { platformCustomerId } = body as { platformCustomerId: string };
      if (byPlatformId.has(platformCustomerId)) {
        throw new AppError('CONFLICT', 'taken', { field: 'platformCustomerId' });
      }
      const customer = {
        id: `Customer:${platformCustomerId}`,
        platformCustomerId,
        createdAt: clock().toISOString(),
      } as Customer;
      byPlatformId.set(platformCustomerId, customer);
      if (crashAfterCreate) {
        crashAfterCreate = false;
        throw new Error('process stopped');
      }
      return customer;
    },
    async list(_platformId: string, q: { platformCustomerId?: string }) {
      const found = byPlatformId.get(q.platformCustomerId ?? '');
      return { items: found ? [found] : [], hasMore: false, totalCount: found ? 1 : 0 };
    },
  } as unknown as Customers;
  return {
    customers,
    crashNext: () => {
      crashAfterCreate = true;
    },
    count: () => byPlatformId.size,
  };
}

async function setUp() {
  const db = createEmbeddedDocumentStore();
  const store = createImportStore(db.collection('jobs'), db.collection('rows'));
  await store.createIndexes();
  let now = new Date('2026-01-01T00:00:00Z');
  const clock = () => now;
  const fake = fakeCustomers(clock);
  const imports = createBulkImport({
    store,
    customers: fake.customers,
    newEvent,
    clock,
    logger: silentLogger,
    claimTimeoutMs: 1000,
  });
  return {
    imports,
    fake,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

test('a row whose customer was created just before a stop ends DONE after restart, not as a duplicate', async () => {
  const { imports, fake, advance } = await setUp();
  const job = await imports.start(PLATFORM, Buffer.from([HEADER, row('a'), row('b')].join('\n')));
  fake.crashNext();
  await imports.work();
  let view = await imports.get(PLATFORM, job.id);
  expect(view.progress).toEqual({ total: 2, processed: 1, successful: 1, failed: 0 });
  expect(view.job.status).toBe('PROCESSING');
  // The claimed row is left alone until its claim times out.
  await imports.work();
  expect((await imports.get(PLATFORM, job.id)).progress.processed).toBe(1);
  advance(1001);
  await imports.work();
  view = await imports.get(PLATFORM, job.id);
  expect(view.progress).toEqual({ total: 2, processed: 2, successful: 2, failed: 0 });
  expect(view.job.status).toBe('COMPLETED');
  expect(fake.count()).toBe(2);
});

test('a platformCustomerId repeated in the file fails its second row only', async () => {
  const { imports } = await setUp();
  const job = await imports.start(PLATFORM, Buffer.from([HEADER, row('x'), row('x'), row('y')].join('\n')));
  await imports.work();
  const view = await imports.get(PLATFORM, job.id);
  expect(view.progress).toEqual({ total: 3, processed: 3, successful: 2, failed: 1 });
  expect(view.errors).toEqual([{ correlationId: 'x', code: 'CONFLICT', message: 'taken' }]);
});
