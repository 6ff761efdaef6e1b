import type { FieldError } from '../../../lib/errors';
import { fieldErrorsOf } from '../test-fixtures/field-errors';
import { BUSINESS_CUSTOMER, INDIVIDUAL_CUSTOMER } from '../test-fixtures/request-bodies';
import { BUSINESS_CREATE_CASES, INDIVIDUAL_CREATE_CASES, SUPPORTED } from '../test-fixtures/customer-create-cases';
import { validateCustomerCreate } from './customer-validation';

const createErrors = (body: unknown) => fieldErrorsOf(() => validateCustomerCreate(body, SUPPORTED));

describe('customer create: valid bodies', () => {
  test('the individual example is accepted and typed', () => {
    expect(validateCustomerCreate(INDIVIDUAL_CUSTOMER, SUPPORTED)).toEqual({
      customerType: 'INDIVIDUAL', platformCustomerId: 'ind-9f84e0c2', region: 'US', currencies: ['USD', 'USDC'],
      profile: { email: 'jane.smith@example.com', phoneNumber: '+14155551234', fullName: 'Jane Smith', birthDate: '1990-01-15', nationality: 'US' },
    });
  });

  test('the business example is accepted with its business info', () => {
    const draft = validateCustomerCreate(BUSINESS_CUSTOMER, SUPPORTED);
    expect(draft.customerType).toBe('BUSINESS');
    expect(draft.profile.businessInfo).toEqual(BUSINESS_CUSTOMER.businessInfo);
    expect(draft.profile.address).toEqual(BUSINESS_CUSTOMER.address);
  });

  test('only customerType is required; duplicate currencies collapse', () => {
    expect(validateCustomerCreate({ customerType: 'INDIVIDUAL', currencies: ['USD', 'USD'] }, SUPPORTED))
      .toEqual({ customerType: 'INDIVIDUAL', currencies: ['USD'], profile: {} });
  });

  test('a body that is not an object is INVALID_INPUT without field errors', () => {
    expect(createErrors([INDIVIDUAL_CUSTOMER])).toEqual([]);
  });
});

describe.each(INDIVIDUAL_CREATE_CASES)('customer create, individual: %s', (_name, patch, expected) => {
  test('reports exactly that field', () => {
    expect(createErrors({ ...INDIVIDUAL_CUSTOMER, ...patch })).toEqual([expected]);
  });
});

describe.each(BUSINESS_CREATE_CASES)('customer create, business: %s', (_name, body, expected) => {
  test('reports exactly that field', () => {
    expect(createErrors(body)).toEqual([expected]);
  });
});

test('customer create lists every invalid field at once, in body order', () => {
  const errors = createErrors({
    customerType: 'INDIVIDUAL', platformCustomerId: '', region: 'usa', currencies: ['GBP'], email: '@', phoneNumber: '555',
    birthDate: '1990-1-1', nationality: 'XX', address: { country: 'US' },
  });
  expect(errors.map((e) => e.field)).toEqual([
    'platformCustomerId', 'region', 'currencies[0]', 'email', 'phoneNumber', 'address.line1', 'address.postalCode', 'birthDate', 'nationality',
  ]);
});

test('with an invalid customerType the common fields are still checked', () => {
  expect(createErrors({ customerType: 'ROBOT', email: 'nope' }).map((e) => e.field)).toEqual(['customerType', 'email']);
});
