import type { FieldError } from '../../../lib/errors';
import { fieldErrorsOf } from '../test-fixtures/field-errors';
import { addedCurrencies, applyCustomerChanges, newCustomer } from './customer';
import { createFieldsOf as fieldsOf } from '../test-fixtures/customer-create-cases';
import { validateCustomerUpdate } from './customer-validation';

const SUPPORTED = ['USD', 'USDC', 'EUR'];
/** The update rules on the typed message; the members' shapes are the contract's (test/http/customers.test.ts). */
const updateErrors = (body: unknown, type: 'INDIVIDUAL' | 'BUSINESS' = 'INDIVIDUAL') =>
  fieldErrorsOf(() => validateCustomerUpdate(fieldsOf(body), type, SUPPORTED));

describe('customer update validation', () => {
  test('the individual update example is accepted', () => {
    const changes = validateCustomerUpdate(
      fieldsOf({
        customerType: 'INDIVIDUAL',
        fullName: 'John Smith',
        birthDate: '1985-06-15',
        currencies: ['USD', 'EUR', 'USDC'],
        address: { line1: '456 Market St', city: 'Seattle', state: 'WA', postalCode: '98101', country: 'US' },
      }),
      'INDIVIDUAL',
      SUPPORTED,
    );
    expect(changes).toEqual({
      currencies: ['USD', 'EUR', 'USDC'],
      profile: {
        fullName: 'John Smith',
        birthDate: '1985-06-15',
        address: { line1: '456 Market St', city: 'Seattle', state: 'WA', postalCode: '98101', country: 'US' },
      },
    });
  });

  test('a business update may change some businessInfo members only', () => {
    const changes = validateCustomerUpdate(
      fieldsOf({
        customerType: 'BUSINESS',
        businessInfo: { legalName: 'New Tech Solutions LLC', taxId: 'EIN-123456789' },
      }),
      'BUSINESS',
      SUPPORTED,
    );
    expect(changes.profile).toEqual({ businessInfo: { legalName: 'New Tech Solutions LLC', taxId: 'EIN-123456789' } });
  });

  test.each<[string, unknown, FieldError]>([
    ['customerType missing', { fullName: 'A' }, {
      field: 'customerType',
      message: 'is required',
      constraint: { enum: ['INDIVIDUAL'] },
    }],
    ['customerType of the other kind', { customerType: 'BUSINESS' }, {
      field: 'customerType',
      message: 'must be one of INDIVIDUAL',
      constraint: { enum: ['INDIVIDUAL'] },
    }],
    ['email and phone together', { customerType: 'INDIVIDUAL', email: 'a@example.com', phoneNumber: '+14155551234' }, {
      field: 'phoneNumber',
      message: 'email and phoneNumber must be updated in separate requests',
    }],
    ['currency not offered', { customerType: 'INDIVIDUAL', currencies: ['MXN'] }, {
      field: 'currencies[0]',
      message: 'must be one of USD, USDC, EUR',
      constraint: { enum: SUPPORTED },
    }],
    ['partial address', { customerType: 'INDIVIDUAL', address: { line1: '1 Main', country: 'US' } }, {
      field: 'address.postalCode',
      message: 'is required',
    }],
  ])('%s', (_name, body, expected) => {
    expect(updateErrors(body)).toEqual([expected]);
  });

  test('business: businessInfo is optional, and none of its members is required on update', () => {
    expect(
      validateCustomerUpdate(
        fieldsOf({ customerType: 'BUSINESS', businessInfo: { naicsCode: '5415' } }),
        'BUSINESS',
        SUPPORTED,
      ).profile,
    )
      .toEqual({ businessInfo: { naicsCode: '5415' } });
  });

  test('every broken rule is reported at once', () => {
    expect(
      updateErrors({
        customerType: 'BUSINESS',
        email: 'x@example.com',
        phoneNumber: '+14155551234',
        currencies: ['JPY'],
      }).map((e) => e.field),
    )
      .toEqual(['customerType', 'currencies[0]', 'phoneNumber']);
  });
});

describe('applying changes', () => {
  const customer = newCustomer(
    {
      customerType: 'BUSINESS',
      profile: {
        email: 'a@example.com',
        businessInfo: { legalName: 'Old', country: 'US', taxId: '1', incorporatedOn: '2020-01-01' },
      },
    },
    { id: 'Customer:1', platformId: 'Platform:1', platformCustomerId: 'p1', umaAddress: '$a@uma.test' },
    ['USD'],
    '2025-01-01T00:00:00.000Z',
  );

  test('a new customer gets the default currencies, the generated UMA address and UNVERIFIED', () => {
    expect(customer).toMatchObject({
      currencies: ['USD'],
      umaAddress: '$a@uma.test',
      platformCustomerId: 'p1',
      verificationStatus: 'UNVERIFIED',
      revision: 1,
      isDeleted: false,
    });
  });

  test('businessInfo members merge; other members replace; the revision moves on', () => {
    const next = applyCustomerChanges(customer, {
      currencies: ['USD', 'EUR'],
      profile: { email: 'b@example.com', businessInfo: { legalName: 'New' } },
    }, '2025-02-01T00:00:00.000Z');
    expect(next.businessInfo).toEqual({ legalName: 'New', country: 'US', taxId: '1', incorporatedOn: '2020-01-01' });
    expect(next).toMatchObject({
      email: 'b@example.com',
      currencies: ['USD', 'EUR'],
      updatedAt: '2025-02-01T00:00:00.000Z',
      revision: 2,
    });
    expect(addedCurrencies(customer.currencies, next.currencies)).toEqual(['EUR']);
  });
});
