import { businessCustomerMembers, IndividualCustomer } from './customer-records';
import { CustomerCreateRequest, CustomerUpdateRequest } from './customer-requests';
import { jsonNames, restToMessage, schemaMembers } from './rest-message';

describe('restToMessage', () => {
  test('reads each field from the member of its JSON name; null and unknown members stay out', () => {
    const fields = restToMessage('accounts.v1.CustomerFields', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      email: null,
      address: { line1: '1 Main St', postalCode: '10001', country: 'US' },
      businessInfo: { legalName: 'Acme', countriesOfOperation: ['US', 'MX'] },
      somethingElse: 'ignored',
    });
    expect(fields).toEqual({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      address: { line1: '1 Main St', postalCode: '10001', country: 'US' },
      businessInfo: { legalName: 'Acme', countriesOfOperation: { values: ['US', 'MX'] } },
    });
  });

  test('a list whose presence matters is its array: absent stays absent, [] is an empty list', () => {
    expect(restToMessage('accounts.v1.CustomerFields', { currencies: [] })).toEqual({ currencies: { values: [] } });
    expect(restToMessage('accounts.v1.CustomerFields', {})).toEqual({});
  });

  test('lists of messages, their own lists and integers', () => {
    const changes = restToMessage('accounts.v1.PlatformConfigChanges', {
      supportedCurrencies: [{
        currencyCode: 'USD',
        minAmount: 100,
        requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
        enabledTransactionTypes: ['OUTGOING'],
      }],
    });
    expect(changes).toEqual({
      supportedCurrencies: {
        values: [{
          currencyCode: 'USD',
          minAmount: 100,
          requiredCounterpartyFields: { values: [{ name: 'FULL_NAME', mandatory: true }] },
          enabledTransactionTypes: { values: ['OUTGOING'] },
        }],
      },
    });
  });

  test('a nullable value: null clears ({}), a number is the value', () => {
    const policy = restToMessage('auth.v1.AgentPolicyInput', {
      spendingLimits: { currency: 'USD', dailyLimit: null, monthlyLimit: 5000 },
    });
    expect(policy).toEqual({
      permissions: [],
      permissionsGiven: false,
      spendingLimits: { currency: 'USD', dailyLimit: {}, monthlyLimit: { value: 5000 } },
    });
  });

  test('a field without presence holds its zero value when the member is left out', () => {
    expect(restToMessage('accounts.v1.VerifyOwnershipRequest', { signature: 'sig' })).toEqual({
      id: '',
      owner: '',
      signature: 'sig',
    });
    expect(restToMessage('accounts.v1.CreateExternalAccountRequest', { accountInfo: { accountType: 'US_ACCOUNT' } }))
      .toEqual({ accountInfo: { accountType: 'US_ACCOUNT', paymentRails: [] } });
  });
});

// A customer member is written once, in the contract, and reaches the proto by its name: these fail
// when a recipe step is missed (a contract member without its proto field, or the other way round).
describe('customer members: the contract and the protos carry the same names', () => {
  const fields = jsonNames('accounts.v1.CustomerFields');
  const customer = jsonNames('accounts.v1.Customer');

  test('every request member has its CustomerFields field, and every field its request member', () => {
    const members = new Set([...schemaMembers(CustomerCreateRequest), ...schemaMembers(CustomerUpdateRequest)]);
    expect([...members].filter((m) => !fields.includes(m))).toEqual([]);
    expect(fields.filter((f) => !members.has(f))).toEqual([]);
  });

  test('every response member has its Customer field', () => {
    const members = [...Object.keys(IndividualCustomer.properties), ...Object.keys(businessCustomerMembers)];
    expect(members.filter((m) => !customer.includes(m))).toEqual([]);
  });

  test('every profile member a request takes comes back on the Customer (save the write-only identifier)', () => {
    const written = fields.filter((f) => f !== 'identifier' && f !== 'customerType');
    expect(written.filter((f) => !customer.includes(f))).toEqual([]);
  });
});

test("with the body schema's member names, a field no member names stays at its zero value", () => {
  const body = { id: 'ExternalAccount:forged', owner: 'PLATFORM', signature: 'sig' };
  expect(restToMessage('accounts.v1.VerifyOwnershipRequest', body, new Set(['signature']))).toEqual({
    id: '',
    owner: '',
    signature: 'sig',
  });
});

test('a member of the wrong JSON type that no schema checked is listed, never passed on', () => {
  const read = () =>
    restToMessage('accounts.v1.PlatformConfigChanges', {
      umaDomain: 7,
      supportedCurrencies: [{ minAmount: 1.5, enabledTransactionTypes: [3] }],
      limits: 'none',
    });
  expect(read).toThrow(expect.objectContaining({
    code: 'INVALID_INPUT',
    details: {
      errors: [
        { field: 'umaDomain', message: 'must be a string' },
        { field: 'supportedCurrencies[0].minAmount', message: 'must be an integer (minor units for amounts)' },
        { field: 'supportedCurrencies[0].enabledTransactionTypes[0]', message: 'must be a string' },
        { field: 'limits', message: 'must be an array' },
      ],
    },
  }));
});
