import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteDocumentStore } from '../../../lib/store/sqlite-document-store';
import { createCustomerStore } from './customer-store';

const dir = mkdtempSync(join(tmpdir(), 'customer-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const customer = (id: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  platformId: 'Platform:p',
  platformCustomerId: id,
  customerType: 'INDIVIDUAL',
  umaAddress: `$${id}@example.com`,
  isDeleted: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
  ...extra,
});

describe('plain identifiers in stored customers', () => {
  it('are sealed at start once, on a store without their index (built then), and never read back', async () => {
    const path = join(dir, 'accounts.sqlite');
    // A store holding plain identifiers: customers with one, one without, and no index for them.
    const earlier = createSqliteDocumentStore({ path });
    await earlier.collection('customers').insertOne(customer('Customer:old-1', { identifier: '123-45-6789' }));
    await earlier.collection('customers').insertOne(customer('Customer:old-2', { identifier: '987-65-4321' }));
    await earlier.collection('customers').insertOne(customer('Customer:sealed', { sealedIdentifier: 'sealed(000)' }));
    await earlier.close();

    const store = createSqliteDocumentStore({ path });
    try {
      const customers = createCustomerStore(store.collection('customers'));
      await customers.createIndexes();
      const seal = (plain: string, id: string) => `sealed(${Buffer.from(plain).toString('hex')}|${id})`;
      expect(await customers.sealLegacyIdentifiers(seal)).toBe(2);
      const stored = await store.collection('customers').find({}, { sort: { _id: 1 } });
      expect(stored.map((d) => [d._id, d.identifier, d.sealedIdentifier])).toEqual([
        ['Customer:old-1', undefined, `sealed(${Buffer.from('123-45-6789').toString('hex')}|Customer:old-1)`],
        ['Customer:old-2', undefined, `sealed(${Buffer.from('987-65-4321').toString('hex')}|Customer:old-2)`],
        ['Customer:sealed', undefined, 'sealed(000)'],
      ]);
      // The next start finds nothing left to seal.
      expect(await customers.sealLegacyIdentifiers(seal)).toBe(0);
      expect(JSON.stringify(await customers.find('Platform:p', 'Customer:old-1'))).not.toContain('123-45-6789');
    } finally {
      await store.close();
    }
  });
});
