import { jsonCopy } from './json-copy';

const viaText = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

test('answers what a JSON round trip answers, member for member', () => {
  const when = new Date('2026-11-26T08:00:00.000Z');
  const samples: unknown[] = [
    { id: 'Transaction:1', amount: 1000, nested: { a: [1, 'two', true, null], gone: undefined, f: () => 1 }, at: when },
    [undefined, () => 1, Symbol('s'), NaN, Infinity, -0, 1.5],
    {
      buffer: Buffer.from('hi'),
      map: new Map([['a', 1]]),
      set: new Set([1]),
      boxed: [new String('s'), new Number(2), new Boolean(false)],
    },
    { toJSON: () => ({ replaced: true }) },
    JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}'),
    'text',
    12,
    false,
    null,
  ];
  for (const sample of samples) expect(jsonCopy(sample)).toEqual(viaText(sample));
  const proto = jsonCopy(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
  expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
  expect(Object.keys(proto)).toEqual(['__proto__']);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('is a copy: changing it leaves the original as it was', () => {
  const original = { a: { b: [1, { c: 2 }] } };
  const copied = jsonCopy(original);
  (copied.a.b[1] as { c: number }).c = 3;
  expect(original).toEqual({ a: { b: [1, { c: 2 }] } });
});

test('refuses what JSON refuses: a BigInt', () => {
  expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
});
