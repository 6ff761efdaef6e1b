import { AppError } from '../../../../lib/errors';
import { isUmaAddress, parseLookupRequest, type LookupParameters } from './lookup-request';

const ACCOUNT = 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965';
const CUSTOMER = 'Customer:da459a29-1fb7-41ce-a4cb-eb3a3c9fd7a7';

function fieldsOf(params: LookupParameters): string[] {
  try {
    parseLookupRequest(params);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('INVALID_INPUT');
    return ((err as AppError).details!.errors as Array<{ field: string }>).map((e) => e.field);
  }
  throw new Error('expected INVALID_INPUT');
}

test.each<[string, LookupParameters, string[]]>([
  ['no sender at all', { accountId: ACCOUNT }, ['senderUmaAddress', 'customerId']],
  ['empty senders', { accountId: ACCOUNT, senderUmaAddress: '', customerId: '' }, ['senderUmaAddress', 'customerId']],
  ['missing account id', { customerId: CUSTOMER }, ['accountId']],
  ['account id of another type', { accountId: CUSTOMER, customerId: CUSTOMER }, ['accountId']],
  ['account id without uuid', { accountId: 'ExternalAccount:123', customerId: CUSTOMER }, ['accountId']],
  ['customer id of another type', { accountId: ACCOUNT, customerId: ACCOUNT }, ['customerId']],
  ['customer id not an id', { accountId: ACCOUNT, customerId: 'cust_42' }, ['customerId']],
  ['UMA address without $', { accountId: ACCOUNT, senderUmaAddress: 'alice@example.com' }, ['senderUmaAddress']],
  ['UMA address without domain', { accountId: ACCOUNT, senderUmaAddress: '$alice' }, ['senderUmaAddress']],
  ['UMA address without TLD', { accountId: ACCOUNT, senderUmaAddress: '$alice@localhost' }, ['senderUmaAddress']],
  ['valid customer, malformed UMA address', { accountId: ACCOUNT, customerId: CUSTOMER, senderUmaAddress: '$@x.com' }, [
    'senderUmaAddress',
  ]],
  ['everything wrong', { accountId: 'x', customerId: 'y', senderUmaAddress: 'z' }, [
    'accountId',
    'senderUmaAddress',
    'customerId',
  ]],
])('%s is INVALID_INPUT naming %j', (_name, params, fields) => {
  expect(fieldsOf(params)).toEqual(fields);
});

test('a malformed field carries its pattern', () => {
  const err = (() => {
    try {
      parseLookupRequest({ accountId: 'x', customerId: CUSTOMER });
    } catch (e) {
      return e as AppError;
    }
  })();
  expect(err!.details!.errors).toEqual([{
    field: 'accountId',
    message: 'must be ExternalAccount:<uuid>',
    constraint: {
      pattern: '^ExternalAccount:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    },
  }]);
});

test.each<[LookupParameters, object]>([
  [{ accountId: ACCOUNT, customerId: CUSTOMER }, { accountId: ACCOUNT, sender: { customerId: CUSTOMER } }],
  [{ accountId: ACCOUNT, senderUmaAddress: '$alice@uma.example.com' }, {
    accountId: ACCOUNT,
    sender: { umaAddress: '$alice@uma.example.com' },
  }],
  [{ accountId: ACCOUNT, customerId: CUSTOMER, senderUmaAddress: '$a.b+c-d_e@x.io' }, {
    accountId: ACCOUNT,
    sender: { customerId: CUSTOMER, umaAddress: '$a.b+c-d_e@x.io' },
  }],
])('valid parameters %j become a typed request', (params, expected) => {
  expect(parseLookupRequest(params)).toEqual(expected);
});

test.each([
  ['$alice@example.com', true],
  ['$Alice.B@sub.example.co.uk', true],
  ['$alice@-bad.com', false],
  ['$alice@example.c', false],
  ['$al ice@example.com', false],
  [`$${'a'.repeat(65)}@example.com`, false],
])('isUmaAddress(%s) is %s', (address, expected) => {
  expect(isUmaAddress(address)).toBe(expected);
});
