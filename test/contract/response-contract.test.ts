import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';
import { apiUrl, checkResponse, ContractViolation } from './response-contract';

const JSON_TYPE = 'application/json; charset=utf-8';

describe('every HTTP test response is checked against our OpenAPI document', () => {
  let sys: TestSystem;
  let customer: Record<string, unknown>;
  beforeAll(async () => {
    sys = await startTestSystem();
    const created = await sys.api('/customers', {
      method: 'POST',
      json: { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'contract-check' },
    });
    expect(created.status).toBe(201);
    customer = created.body;
  });
  afterAll(() => sys.stop());

  const check = (body: unknown, status = 200) => () =>
    checkResponse({
      method: 'GET',
      url: apiUrl(`/customers/${customer.id}`),
      status,
      body,
      contentType: JSON_TYPE,
    });

  it('accepts the record the server wrote', () => {
    expect(check(customer)).not.toThrow();
  });

  it('refuses a record missing a required member, naming operation and status', () => {
    const { customerType: _dropped, ...tampered } = customer;
    expect(check(tampered)).toThrow(ContractViolation);
    expect(check(tampered)).toThrow(/getCustomer \(GET \/customers\/\{customerId\}\) answered 200/);
  });

  it('refuses a value outside its enum, a wrong type and an undocumented member', () => {
    expect(check({ ...customer, kycStatus: 'SOMETIMES' })).toThrow(/allowedValues/);
    expect(check({ ...customer, createdAt: 12 })).toThrow(/createdAt must be string/);
    expect(check({ ...customer, secretScore: 3 })).toThrow(ContractViolation);
  });

  it('refuses a status the operation does not document, and an error outside the envelope', () => {
    expect(check({ status: 409, code: 'CONFLICT', message: 'x' }, 409)).toThrow(
      /answered 409, which the OpenAPI document does not list/,
    );
    expect(check({ status: 404, code: 'CONFLICT', message: 'x' }, 404)).toThrow(
      /code must be equal to one of the allowed values/,
    );
    expect(check({ code: 'USER_NOT_FOUND', message: 'x' }, 404)).toThrow(/must have required property 'status'/);
  });

  it('checks answers to paths no operation serves against the error envelope', async () => {
    expect(() =>
      checkResponse({
        method: 'GET',
        url: apiUrl('/no-such-resource'),
        status: 404,
        body: { status: 404, code: 'NOT_FOUND' },
        contentType: JSON_TYPE,
      })
    ).toThrow(/message/);
    await expect(sys.api('/no-such-resource')).resolves.toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});
