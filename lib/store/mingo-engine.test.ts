import { mingoEngine } from './mingo-engine';

const { Query } = require('mingo/query') as typeof import('mingo/types/query');
const { Context } = require('mingo') as typeof import('mingo');
const context = Context.init({
  query: require('mingo/operators/query'),
  expression: require('mingo/operators/expression'),
});

/** Shapes an equality can meet on its way down a path. */
const DOCS: Array<Record<string, unknown>> = [
  {},
  { a: null },
  { a: 'x' },
  { a: 1 },
  { a: 0 },
  { a: true },
  { a: '1' },
  { a: ['x'] },
  { a: [['x']] },
  { a: [] },
  { a: { b: 'x' } },
  { a: { b: ['x', 'y'] } },
  { a: [{ b: 'x' }, { b: 'z' }] },
  { a: { b: null } },
  { a: { b: { c: 1 } } },
  { a: new Date(0) },
  { a: { b: new Date(0) } },
  { a: 5n },
  { a: 'x', v: 3, p: 'P' },
  { a: 'x', v: 4, p: 'P' },
  { a: Object.assign(Object.create(null), { b: 'x' }) },
  { a: -0 },
  { a: { b: 'x', c: { d: true } } },
];

const FILTERS: Array<Record<string, unknown>> = [
  { a: 'x' },
  { a: 1 },
  { a: 0 },
  { a: true },
  { a: '1' },
  { 'a.b': 'x' },
  { 'a.b': 'y' },
  { 'a.c.d': true },
  { 'a.b.c': 1 },
  { a: 'x', v: 3, p: 'P' },
  { a: 'x', v: 3, p: 'Q' },
  { 'a.0': 'x' },
  { 'a.0.b': 'x' },
  { a: 5 },
  {},
];

/** A test's answer, or that it threw (mingo does on some shapes, such as an object without a prototype under `$in`). */
function outcome(test: () => boolean): boolean | 'throws' {
  try {
    return test();
  } catch {
    return 'throws';
  }
}

describe('mingoEngine.compileFilter', () => {
  it('answers equality filters exactly as mingo does, whatever the document holds', () => {
    for (const filter of FILTERS) {
      const ours = mingoEngine.compileFilter(filter);
      const theirs = new Query(filter, { context });
      for (const doc of DOCS) {
        expect({ filter, doc, matches: ours.test(doc) }).toEqual({ filter, doc, matches: theirs.test(doc) });
      }
    }
  });

  it('answers comparison filters exactly as mingo does, whatever the document holds', () => {
    const docs: Array<Record<string, unknown>> = [
      ...DOCS,
      { a: 2 },
      { a: 2.5 },
      { a: -1 },
      { a: 'b' },
      { a: 'y' },
      { a: '' },
      { a: false },
      { a: [1, 5] },
      { a: [0, 10] },
      { a: ['x', 'z'] },
      { a: [null] },
      { a: [[1], 1] },
      { a: [{ b: 1 }] },
      { a: [new Date(0), 'x'] },
      { a: [5n] },
      { a: NaN },
      { a: Infinity },
      { a: [NaN] },
      { a: { b: 2 } },
      { a: { b: [1, 3] } },
      { a: { b: 'y' } },
      { a: [true, 2] },
      { a: [[5]] },
      { l: ['p', 'q'], n: [1, 2, 3] },
      { l: [], n: [1] },
      { l: ['p', { 0: 'q' }] },
      { l: [['p']] },
      { l: 'p' },
      { l: null },
      { l: ['p'], a: 1, b: 2 },
      { a: 1, b: 'x' },
      { a: 3, b: null },
      { a: Buffer.from('x') },
      { a: /x/ },
      { a: ['x', 5n] },
      { a: [1, NaN] },
      {
        a: new (class Code {
          toString() {
            return 'x';
          }
        })(),
      },
      { a: [Buffer.from('x'), 'y'] },
      { a: -Infinity },
    ];
    const filters: Array<Record<string, unknown>> = [
      { a: { $gt: 1 } },
      { a: { $gte: 2 } },
      { a: { $lt: 2 } },
      { a: { $lte: 0 } },
      { a: { $gt: 1, $lt: 5 } },
      { a: { $gte: 'x' } },
      { a: { $lt: 'y' } },
      { a: { $gt: '' } },
      { a: { $ne: 'x' } },
      { a: { $ne: 1 } },
      { a: { $ne: true } },
      { a: { $eq: 1 } },
      { a: { $in: ['x', 1] } },
      { a: { $in: [] } },
      { a: { $nin: ['x', 5] } },
      { a: { $nin: [] } },
      { a: { $exists: true } },
      { a: { $exists: false } },
      { 'a.b': { $exists: true } },
      { 'a.b': { $exists: false } },
      { 'a.b': { $gt: 1 } },
      { 'a.b': { $ne: 'x' } },
      { 'a.b': { $in: [1, 'x'] } },
      { 'a.b.c': { $exists: false } },
      { 'a.0': { $exists: true } },
      { 'a.0': { $gt: 0 } },
      { 'a.1': { $ne: 5 } },
      { 'l.0': 'p' },
      { 'l.1': { $exists: false } },
      { 'l.5': { $exists: false } },
      { l: { $nin: ['p'] } },
      { l: { $ne: 'q' } },
      { 'n.2': { $lte: 3 } },
      { $or: [{ a: { $gt: 1 } }, { l: { $exists: true } }] },
      { $and: [{ a: { $gte: 1 } }, { b: { $ne: 'x' } }] },
      { a: { $gte: 1 }, $or: [{ 'l.0': { $exists: false } }, { b: { $lte: 2 } }] },
      { $or: [{ a: 1 }, { 'a.0.b': 1 }] },
      { $and: [{ $or: [{ a: 'x' }, { a: 2 }] }, { a: { $nin: [2] } }] },
      { a: { $exists: true, $ne: 1 } },
    ];
    for (const filter of filters) {
      const ours = mingoEngine.compileFilter(filter);
      const theirs = new Query(filter, { context });
      for (const doc of docs) {
        expect({ filter, doc, matches: outcome(() => ours.test(doc)) }).toEqual({
          filter,
          doc,
          matches: outcome(() => theirs.test(doc)),
        });
      }
    }
  });

  it('orders strings by code point, as MongoDB does, and numbers only with numbers', () => {
    const beyond = mingoEngine.compileFilter({ s: { $gt: '\uffff' } });
    expect(beyond.test({ s: '\u{1f600}' })).toBe(true);
    expect(beyond.test({ s: '\ufffe' })).toBe(false);
    const positive = mingoEngine.compileFilter({ n: { $gt: 0 } });
    expect(
      [{ n: 1 }, { n: '1' }, { n: true }, { n: [0, '2', 3] }, { n: [-1, '5'] }, {}].map((doc) => positive.test(doc)),
    ).toEqual([true, false, false, true, false, false]);
    const mixed = mingoEngine.compileFilter({ n: { $gte: 1.5, $lte: 2 } });
    expect([{ n: 2 }, { n: 1.5 }, { n: 1 }, { n: [1, 3] }, { n: -0 }].map((doc) => mixed.test(doc))).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
    expect(mingoEngine.compileFilter({ n: { $ne: 0 } }).test({ n: -0 })).toBe(false);
    expect(mingoEngine.compileFilter({ 'n.b': { $ne: 1 } }).test({ n: null })).toBe(true);
  });

  it('still takes any other filter to mingo', () => {
    const query = mingoEngine.compileFilter({ a: { $in: ['x', 'y'] }, 'a.b': null });
    expect(query.test({ a: 'x' })).toBe(true);
    expect(query.test({ a: 'z' })).toBe(false);
  });

  it('answers $expr (its aggregation expressions are loaded on the first filter that holds one)', () => {
    const query = mingoEngine.compileFilter({ $and: [{ kind: 'limit' }, { $expr: { $lt: ['$used', '$max'] } }] });
    expect(query.test({ kind: 'limit', used: 2, max: 3 })).toBe(true);
    expect(query.test({ kind: 'limit', used: 3, max: 3 })).toBe(false);
    expect(mingoEngine.compileFilter({ $expr: { $eq: [{ $size: '$items' }, 2] } }).test({ items: [1, 2] })).toBe(true);
  });
});
