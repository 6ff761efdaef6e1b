import { BUSINESS_CUSTOMER, INDIVIDUAL_CUSTOMER } from '../test-fixtures/request-bodies';
import { fieldErrorsOf } from '../test-fixtures/field-errors';
import {
  BUSINESS_CREATE_CASES,
  createFieldsOf,
  customerCreateErrors,
  INDIVIDUAL_CREATE_CASES,
  SUPPORTED,
} from '../test-fixtures/customer-create-cases';
import { validateCustomerCreate } from './customer-validation';

const ruleErrors = (body: unknown) => fieldErrorsOf(() => validateCustomerCreate(createFieldsOf(body), SUPPORTED));

describe('customer create: valid requests', () => {
  test('the individual example is accepted and typed', () => {
    expect(validateCustomerCreate(createFieldsOf(INDIVIDUAL_CUSTOMER), SUPPORTED)).toEqual({
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'ind-9f84e0c2',
      region: 'US',
      currencies: ['USD', 'USDC'],
      profile: {
        email: 'jane.smith@example.com',
        phoneNumber: '+14155551234',
        fullName: 'Jane Smith',
        birthDate: '1990-01-15',
        nationality: 'US',
      },
    });
  });

  test('the business example is accepted with its business info', () => {
    const draft = validateCustomerCreate(createFieldsOf(BUSINESS_CUSTOMER), SUPPORTED);
    expect(draft.customerType).toBe('BUSINESS');
    expect(draft.profile.businessInfo).toEqual(BUSINESS_CUSTOMER.businessInfo);
    expect(draft.profile.address).toEqual(BUSINESS_CUSTOMER.address);
  });

  test('only customerType is required; duplicate currencies collapse', () => {
    expect(
      validateCustomerCreate(createFieldsOf({ customerType: 'INDIVIDUAL', currencies: ['USD', 'USD'] }), SUPPORTED),
    )
      .toEqual({ customerType: 'INDIVIDUAL', currencies: ['USD'], profile: {} });
  });

  test('a body that is not an object is INVALID_INPUT', () => {
    expect(customerCreateErrors([INDIVIDUAL_CUSTOMER])).toEqual([{
      field: 'customerType',
      message: 'is required',
      constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
    }]);
  });
});

describe.each(INDIVIDUAL_CREATE_CASES)(
  'customer create, individual (contract, then rules): %s',
  (_name, patch, expected) => {
    test('reports exactly that field', () => {
      expect(customerCreateErrors({ ...INDIVIDUAL_CUSTOMER, ...patch })).toEqual([expected]);
    });
  },
);

describe.each(BUSINESS_CREATE_CASES)(
  'customer create, business (contract, then rules): %s',
  (_name, body, expected) => {
    test('reports exactly that field', () => {
      expect(customerCreateErrors(body)).toEqual([expected]);
    });
  },
);

test("customer create lists every invalid field at once: the contract's in body order, then the rules'", () => {
  const errors = customerCreateErrors({
    customerType: 'INDIVIDUAL',
    platformCustomerId: '',
    region: 'usa',
    currencies: ['GBP'],
    email: '@',
    phoneNumber: '555',
    birthDate: '1990-1-1',
    nationality: 'XX',
    address: { country: 'US' },
  });
  expect(errors.map((e) => e.field)).toEqual([
    'platformCustomerId',
    'region',
    'email',
    'phoneNumber',
    'address.line1',
    'address.postalCode',
    'birthDate',
    'nationality',
    'currencies[0]',
  ]);
});

test('with an invalid customerType the common fields are still checked', () => {
  expect(customerCreateErrors({ customerType: 'ROBOT', email: 'nope' }).map((e) => e.field)).toEqual([
    'customerType',
    'email',
  ]);
});

describe('the rules on the typed message (what a caller skipping the contract hears)', () => {
  test('customerType missing or unknown', () => {
    expect(ruleErrors({})).toEqual([{
      field: 'customerType',
      message: 'is required',
      constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
    }]);
    expect(ruleErrors({ customerType: 'ROBOT' })).toEqual([{
      field: 'customerType',
      message: 'must be one of INDIVIDUAL, BUSINESS',
      constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
    }]);
  });

  test('currencies: at least one, each offered by the platform', () => {
    expect(ruleErrors({ customerType: 'INDIVIDUAL', currencies: [] })).toEqual([{
      field: 'currencies',
      message: 'must list at least one currency',
      constraint: { enum: SUPPORTED },
    }]);
    expect(ruleErrors({ customerType: 'INDIVIDUAL', currencies: ['USD', 'JPY', 'MXN'] }).map((e) => e.field)).toEqual([
      'currencies[1]',
      'currencies[2]',
    ]);
  });

  test('a business create names its business info and its four identifying members', () => {
    expect(ruleErrors({ customerType: 'BUSINESS' })).toEqual([{ field: 'businessInfo', message: 'is required' }]);
    expect(ruleErrors({ customerType: 'BUSINESS', businessInfo: { legalName: 'Acme' } }).map((e) => e.field))
      .toEqual(['businessInfo.country', 'businessInfo.taxId', 'businessInfo.incorporatedOn']);
  });

  test('an address names the members it cannot do without', () => {
    expect(ruleErrors({ customerType: 'INDIVIDUAL', address: { line1: '1 Main St' } }).map((e) => e.field)).toEqual([
      'address.postalCode',
      'address.country',
    ]);
  });

  test('the due-diligence rules hold beside the others', () => {
    expect(
      ruleErrors({ customerType: 'INDIVIDUAL', currencies: ['JPY'], idType: 'SSN', identifier: 'nope' }).map((e) =>
        e.field
      ),
    ).toEqual(['currencies[0]', 'identifier']);
  });
});
