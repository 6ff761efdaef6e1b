import { canonicalJson, requestHash } from './canonical-json';

describe('canonicalJson', () => {
  test.each([
    [{ b: 1, a: [3, { d: 'x', c: null }] }, '{"a":[3,{"c":null,"d":"x"}],"b":1}'],
    [{ a: undefined, b: true }, '{"b":true}'],
    [[undefined, 1], '[null,1]'],
    ['é"\n', '"é\\"\\n"'],
    [null, 'null'],
    [{}, '{}'],
  ])('%j -> %s', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });
});

describe('requestHash', () => {
  const base = {
    operation: 'credential.create',
    targetId: 'InternalAccount:1',
    body: { type: 'PASSKEY', nickname: 'a' },
  };
  test('key order and formatting do not matter', () => {
    expect(requestHash(base)).toBe(requestHash({ ...base, body: JSON.parse('{ "nickname":"a", "type":"PASSKEY" }') }));
  });
  test('operation, target and body each change the hash', () => {
    const hash = requestHash(base);
    expect(requestHash({ ...base, operation: 'credential.revoke' })).not.toBe(hash);
    expect(requestHash({ ...base, targetId: 'InternalAccount:2' })).not.toBe(hash);
    expect(requestHash({ ...base, body: { ...base.body, nickname: 'b' } })).not.toBe(hash);
  });
  test('an absent body is the empty object', () => {
    expect(requestHash({ ...base, body: undefined })).toBe(requestHash({ ...base, body: {} }));
    expect(requestHash(base)).toMatch(/^[0-9a-f]{64}$/);
  });
});
