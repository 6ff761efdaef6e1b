import { mingoEngine } from './mingo-engine';

const { Query } = require('mingo/query') as typeof import('mingo/types/query');
const { Context } = require('mingo') as typeof import('mingo');
const context = Context.init({ query: require('mingo/operators/query'), expression: require('mingo/operators/expression') });

/** Shapes an equality can meet on its way down a path. */
const DOCS: Array<Record<string, unknown>> = [
  {}, { a: null }, { a: 'x' }, { a: 1 }, { a: 0 }, { a: true }, { a: '1' }, { a: ['x'] }, { a: [['x']] }, { a: [] },
  { a: { b: 'x' } }, { a: { b: ['x', 'y'] } }, { a: [{ b: 'x' }, { b: 'z' }] }, { a: { b: null } }, { a: { b: { c: 1 } } },
  { a: new Date(0) }, { a: { b: new Date(0) } }, { a: 5n }, { a: 'x', v: 3, p: 'P' }, { a: 'x', v: 4, p: 'P' },
  { a: Object.assign(Object.create(null), { b: 'x' }) }, { a: -0 }, { a: { b: 'x', c: { d: true } } },
];

const FILTERS: Array<Record<string, unknown>> = [
  { a: 'x' }, { a: 1 }, { a: 0 }, { a: true }, { a: '1' }, { 'a.b': 'x' }, { 'a.b': 'y' }, { 'a.c.d': true }, { 'a.b.c': 1 },
  { a: 'x', v: 3, p: 'P' }, { a: 'x', v: 3, p: 'Q' }, { 'a.0': 'x' }, { 'a.0.b': 'x' }, { a: 5 }, {},
];

describe('mingoEngine.compileFilter', () => {
  it('answers equality filters exactly as mingo does, whatever the document holds', () => {
    for (const filter of FILTERS) {
      const ours = mingoEngine.compileFilter(filter);
      const theirs = new Query(filter, { context });
      for (const doc of DOCS) expect({ filter, doc, matches: ours.test(doc) }).toEqual({ filter, doc, matches: theirs.test(doc) });
    }
  });

  it('still takes any other filter to mingo', () => {
    const query = mingoEngine.compileFilter({ a: { $in: ['x', 'y'] }, 'a.b': null });
    expect(query.test({ a: 'x' })).toBe(true);
    expect(query.test({ a: 'z' })).toBe(false);
  });
});
