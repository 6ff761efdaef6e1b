import { Type } from '@sinclair/typebox';
import { contractJson } from './contract-json';

const Record = Type.Object({
  id: Type.String(),
  tags: Type.Optional(Type.Array(Type.String())),
  roles: Type.Array(Type.String()),
  address: Type.Optional(Type.Object({ line1: Type.String(), city: Type.Optional(Type.String()) })),
  items: Type.Optional(Type.Array(Type.Object({ name: Type.String() }))),
  metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
  isDeleted: Type.Optional(Type.Boolean()),
});

test("members in the schema's order; those it does not name stay out", () => {
  const json = contractJson(Record, { internal: 1, isDeleted: false, id: 'a', roles: ['x'] });
  expect(JSON.stringify(json)).toBe('{"id":"a","roles":["x"],"isDeleted":false}');
});

test('absent and null members stay out; an empty list stays out only where the schema makes it optional', () => {
  expect(contractJson(Record, { id: 'a', tags: [], roles: [], address: null })).toEqual({ id: 'a', roles: [] });
});

test('nested records and lists of records are written by their schemas; a free-form object as is', () => {
  const json = contractJson(Record, {
    id: 'a',
    roles: [],
    address: { city: 'Paris', line1: '1 rue', zone: 'internal' },
    items: [{ name: 'n', hidden: true }],
    metadata: { any: { thing: 1 } },
  });
  expect(JSON.stringify(json)).toBe(
    '{"id":"a","roles":[],"address":{"line1":"1 rue","city":"Paris"},"items":[{"name":"n"}],'
      + '"metadata":{"any":{"thing":1}}}',
  );
});

test('a member named in nullWhenAbsent is null where the message leaves it out, in its place', () => {
  const json = contractJson(Record, { id: 'a', roles: [], isDeleted: true }, { nullWhenAbsent: ['tags', 'isDeleted'] });
  expect(JSON.stringify(json)).toBe('{"id":"a","tags":null,"roles":[],"isDeleted":true}');
});
