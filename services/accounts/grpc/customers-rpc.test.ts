import { newId } from '../../../lib/ids';
import { createAesGcmSealer } from '../../../lib/sealing/aes-gcm-sealer';
import { startAccountsService, type AccountsHarness } from '../test-fixtures/accounts-service-harness';
import { BUSINESS_CUSTOMER, INDIVIDUAL_CUSTOMER, customerFieldsOf } from '../test-fixtures/request-bodies';

let h: AccountsHarness;
let platformA: { platformId: string };
let platformB: { platformId: string };

const PII_KEY = '11'.repeat(32);
const sealer = createAesGcmSealer(Buffer.from(PII_KEY, 'hex'));

beforeAll(async () => {
  h = await startAccountsService({
    ACCOUNTS_PLATFORM_CURRENCIES: 'USD,USDC,EUR',
    ACCOUNTS_UMA_DOMAIN: 'uma.test',
    ACCOUNTS_PII_KEY: PII_KEY,
  });
  platformA = await h.newPlatform();
  platformB = await h.newPlatform();
});
afterAll(() => h.stop());

describe('CreateCustomer', () => {
  test('creates an individual with generated UMA address and one internal account per currency', async () => {
    const { customer } = await h.client.createCustomer({ customer: customerFieldsOf(INDIVIDUAL_CUSTOMER) }, platformA);
    expect(customer).toMatchObject({
      platformCustomerId: 'ind-9f84e0c2',
      customerType: 'INDIVIDUAL',
      currencies: ['USD', 'USDC'],
      kycStatus: 'UNVERIFIED',
      fullName: 'Jane Smith',
      email: 'jane.smith@example.com',
      isDeleted: false,
    });
    expect(customer!.id).toMatch(/^Customer:/);
    expect(customer!.umaAddress).toMatch(/^\$[0-9a-f]{12}@uma\.test$/);
    const { accounts } = await h.client.listInternalAccounts({ customerId: customer!.id, limit: 0 }, platformA);
    expect(accounts.map((a) => [a.type, a.balance?.currency?.code, a.balance?.amount]).sort()).toEqual([
      ['INTERNAL_CRYPTO', 'USDC', 0],
      ['INTERNAL_FIAT', 'USD', 0],
    ]);
  });

  test('without currencies the customer gets all the platform currencies', async () => {
    const { customer } = await h.client.createCustomer(
      { customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) },
      platformA,
    );
    expect(customer!.currencies).toEqual(['USD', 'USDC', 'EUR']);
    expect(customer!.platformCustomerId).toBe(customer!.id.slice('Customer:'.length));
  });

  test('creates a business customer', async () => {
    const { customer } = await h.client.createCustomer({ customer: customerFieldsOf(BUSINESS_CUSTOMER) }, platformA);
    expect(customer).toMatchObject({
      customerType: 'BUSINESS',
      kybStatus: 'UNVERIFIED',
      businessInfo: { legalName: 'Acme Corporation', taxId: '47-1234567' },
    });
    expect(customer!.kycStatus).toBeUndefined();
  });

  test("every broken rule comes back at once in details.errors (shapes are the contract's, at the edge)", async () => {
    const body = {
      customerType: 'INDIVIDUAL',
      currencies: ['MXN'],
      idType: 'SSN',
      identifier: 'nope',
      address: { line1: '1 Main St' },
    };
    const err = await h.client.createCustomer({ customer: customerFieldsOf(body) }, platformA).catch((e) => e);
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'currencies[0]',
      'address.postalCode',
      'address.country',
      'identifier',
    ]);
  });

  test('platformCustomerId is unique per platform (CONFLICT), not across platforms', async () => {
    const body = { customerType: 'INDIVIDUAL', platformCustomerId: 'dup-1' };
    await h.client.createCustomer({ customer: customerFieldsOf(body) }, platformA);
    await expect(h.client.createCustomer({ customer: customerFieldsOf(body) }, platformA)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(h.client.createCustomer({ customer: customerFieldsOf(body) }, platformB)).resolves.toBeDefined();
  });

  test('a taken UMA address is a CONFLICT', async () => {
    await h.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL', umaAddress: '$jane@uma.test' }),
    }, platformA);
    await expect(
      h.client.createCustomer({
        customer: customerFieldsOf({ customerType: 'INDIVIDUAL', umaAddress: '$jane@uma.test' }),
      }, platformA),
    )
      .rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'umaAddress' } });
  });

  test('the event is written with the customer', async () => {
    const { customer } = await h.client.createCustomer(
      { customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) },
      platformA,
    );
    const doc = await h.store.collection('customers').findOne({ _id: customer!.id });
    expect(doc?._outbox).toEqual([
      expect.objectContaining({
        type: 'CUSTOMER.CREATED',
        version: 1,
        platformId: platformA.platformId,
        aggregateId: customer!.id,
      }),
    ]);
  });

  test('a call without a platform is UNAUTHORIZED', async () => {
    await expect(h.client.createCustomer({ customer: customerFieldsOf(INDIVIDUAL_CUSTOMER) })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });
});

describe('the identification number', () => {
  const readIdentifier = async (id: string) => {
    const doc = await h.store.collection('customers').findOne({ _id: id });
    return { doc, opened: doc?.sealedIdentifier ? sealer.open(doc.sealedIdentifier as string, id) : undefined };
  };

  test('is stored only sealed (bound to the customer) and never returned', async () => {
    const { customer } = await h.client.createCustomer({
      customer: customerFieldsOf({
        ...INDIVIDUAL_CUSTOMER,
        platformCustomerId: 'pii-1',
        idType: 'SSN',
        identifier: '123-45-6789',
      }),
    }, platformA);
    expect(JSON.stringify(customer)).not.toContain('6789');
    const { doc, opened } = await readIdentifier(customer!.id);
    expect(JSON.stringify(doc)).not.toContain('123-45-6789');
    expect(doc?.identifier).toBeUndefined();
    expect(opened).toBe('123-45-6789');
  });

  test('an update seals the new value; an update without it keeps the old one', async () => {
    const { customer } = await h.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL', identifier: '111-11-1111' }),
    }, platformA);
    await h.client.updateCustomer({
      id: customer!.id,
      changes: customerFieldsOf({ customerType: 'INDIVIDUAL', identifier: '222-22-2222' }),
    }, platformA);
    expect((await readIdentifier(customer!.id)).opened).toBe('222-22-2222');
    await h.client.updateCustomer({
      id: customer!.id,
      changes: customerFieldsOf({ customerType: 'INDIVIDUAL', fullName: 'X' }),
    }, platformA);
    expect((await readIdentifier(customer!.id)).opened).toBe('222-22-2222');
  });

  test('documents holding plain-text identifiers are sealed at start', async () => {
    const { customer } = await h.client.createCustomer(
      { customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) },
      platformA,
    );
    await h.store.collection('customers').updateOne({ _id: customer!.id }, { $set: { identifier: '999-99-9999' } });
    await h.module.start?.();
    const { doc, opened } = await readIdentifier(customer!.id);
    expect([doc?.identifier, opened]).toEqual([undefined, '999-99-9999']);
  });
});

describe('GetCustomer and UpdateCustomer', () => {
  test('another platform sees USER_NOT_FOUND, exactly like a missing customer', async () => {
    const { customer } = await h.client.createCustomer(
      { customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) },
      platformA,
    );
    await expect(h.client.getCustomer({ id: customer!.id }, platformA)).resolves.toMatchObject({
      customer: { id: customer!.id },
    });
    const foreign = await h.client.getCustomer({ id: customer!.id }, platformB).catch((e) => e);
    const missing = await h.client.getCustomer({ id: newId('Customer') }, platformB).catch((e) => e);
    expect([foreign.code, foreign.message]).toEqual([missing.code, missing.message]);
    expect(foreign.code).toBe('USER_NOT_FOUND');
    await expect(
      h.client.updateCustomer({
        id: customer!.id,
        changes: customerFieldsOf({ customerType: 'INDIVIDUAL', fullName: 'X' }),
      }, platformB),
    )
      .rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });

  test('update changes the given fields, opens accounts for added currencies and records the event', async () => {
    const { customer } = await h.client.createCustomer({
      customer: customerFieldsOf({ customerType: 'INDIVIDUAL', currencies: ['USD'], fullName: 'Old' }),
    }, platformA);
    const { customer: updated } = await h.client.updateCustomer({
      id: customer!.id,
      changes: customerFieldsOf({ customerType: 'INDIVIDUAL', fullName: 'New', currencies: ['USD', 'EUR'] }),
    }, platformA);
    expect(updated).toMatchObject({ fullName: 'New', currencies: ['USD', 'EUR'], createdAt: customer!.createdAt });
    const { accounts } = await h.client.listInternalAccounts({ customerId: customer!.id, limit: 0 }, platformA);
    expect(accounts.map((a) => a.balance?.currency?.code).sort()).toEqual(['EUR', 'USD']);
    const doc = await h.store.collection('customers').findOne({ _id: customer!.id });
    expect((doc?._outbox as Array<{ type: string }>).map((e) => e.type)).toEqual([
      'CUSTOMER.CREATED',
      'CUSTOMER.UPDATED',
    ]);
  });

  test('an update of the other customer type is INVALID_INPUT on customerType', async () => {
    const { customer } = await h.client.createCustomer(
      { customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) },
      platformA,
    );
    const err = await h.client.updateCustomer({
      id: customer!.id,
      changes: customerFieldsOf({ customerType: 'BUSINESS' }),
    }, platformA).catch((e) => e);
    expect([err.code, err.details.errors[0].field]).toEqual(['INVALID_INPUT', 'customerType']);
  });
});

describe('ListCustomers', () => {
  test('pages with an opaque cursor until hasMore is false; totalCount counts the filter', async () => {
    const platform = await h.newPlatform();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await h.client.createCustomer({
          customer: customerFieldsOf({
            customerType: i % 2 ? 'BUSINESS' : 'INDIVIDUAL',
            ...(i % 2 ? { businessInfo: BUSINESS_CUSTOMER.businessInfo } : {}),
          }),
        }, platform)).customer!.id,
      );
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await h.client.listCustomers({ limit: 2, cursor, includeDeleted: false }, platform);
      expect(page.totalCount).toBe(5);
      seen.push(...page.customers.map((c) => c.id));
      if (!page.hasMore) break;
      cursor = page.nextCursor;
      expect(cursor).toBeDefined();
    }
    // Creation order; customers created in the same millisecond are ordered by id.
    expect(seen).toHaveLength(5);
    expect([...seen].sort()).toEqual([...ids].sort());
    const businesses = await h.client.listCustomers(
      { limit: 0, customerType: 'BUSINESS', includeDeleted: false },
      platform,
    );
    expect([businesses.customers.length, businesses.totalCount, businesses.hasMore, businesses.nextCursor]).toEqual([
      2,
      2,
      false,
      undefined,
    ]);
  });

  test('invalid filters and cursors are INVALID_INPUT', async () => {
    await expect(h.client.listCustomers({ limit: 0, cursor: 'garbage', includeDeleted: false }, platformA)).rejects
      .toMatchObject({ code: 'INVALID_INPUT' });
    await expect(h.client.listCustomers({ limit: 101, includeDeleted: false }, platformA)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    // The filters' shape is the gateway's contract (test/http/customers.test.ts); the service still
    // refuses a time bound it cannot read, since it compares normalised times.
    const err = await h.client.listCustomers({
      limit: 0,
      createdAfter: 'yesterday',
      customerType: 'ROBOT',
      includeDeleted: false,
    }, platformA).catch((e) => e);
    expect(err.details.errors.map((e: { field: string }) => e.field)).toEqual(['createdAfter']);
  });

  test('a platform never lists another platform’s customers', async () => {
    const platform = await h.newPlatform();
    expect(await h.client.listCustomers({ limit: 0, includeDeleted: false }, platform)).toEqual({
      customers: [],
      hasMore: false,
      totalCount: 0,
    });
  });
});
