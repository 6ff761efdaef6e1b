import { applyUpdate } from './apply-update';
import { cloneDocument } from './clone-document';

const updateOperators = require('mingo/operators/update') as Record<
  string,
  (expr: Record<string, unknown>) => (doc: Record<string, unknown>) => string[]
>;

/** What mingo alone makes of the update, on its own deep copy (the embedded store's former way). */
function withMingo(doc: Record<string, unknown>, update: Record<string, Record<string, unknown>>) {
  const copy = cloneDocument(doc);
  let changed = false;
  for (const [op, fields] of Object.entries(update)) {
    changed = updateOperators[op](cloneDocument(fields))(copy).length > 0 || changed;
  }
  return { doc: copy, changed };
}

const DOCS: Array<Record<string, unknown>> = [
  { _id: 'a' },
  { _id: 'b', n: 1, s: 'x', list: ['p', 'q'], nested: { list: [1, 2], at: new Date(0) }, z: null },
  { _id: 'c', n: -0, list: [], nested: { deep: { v: [{ w: 1 }] } }, nan: NaN, big: 5n },
  { _id: 'd', n: 2.5, list: [{ k: 1 }, { k: 2 }, { k: 3 }], obj: { b: 1, a: 2 } },
];

const UPDATES: Array<Record<string, Record<string, unknown>>> = [
  { $set: { n: 1 } },
  { $set: { n: 2, s: 'y', fresh: { a: [1] } } },
  { $set: { obj: { a: 2, b: 1 } } },
  { $set: { z: null, list: ['p', 'q'] } },
  { $set: { 'nested.list': [3] } },
  { $set: { 'list.0': 'r' } },
  { $set: { nested: { list: [1, 2], at: new Date(0) } } },
  { $set: { at: new Date(1) } },
  { $unset: { n: '', missing: '' } },
  { $unset: { z: 1 } },
  { $unset: { 'nested.list': '' } },
  { $unset: { list: '', obj: '' } },
  { $inc: { n: 1 } },
  { $inc: { n: 0 } },
  { $inc: { fresh: 0 } },
  { $inc: { fresh: 2, n: -1.5 } },
  { $inc: { nan: 1 } },
  { $inc: { big: 1 } },
  { $inc: { 'nested.count': 1 } },
  { $push: { list: 'r' } },
  { $push: { list: { $each: ['r', 's'], $slice: -2 } } },
  { $push: { list: { $each: ['r'], $slice: 2 } } },
  { $push: { list: { $each: [], $slice: -5 } } },
  { $push: { list: { $each: [] } } },
  { $push: { list: { $each: ['r'], $slice: 0 } } },
  { $push: { fresh: { $each: ['r', 's'], $slice: -1 } } },
  { $push: { fresh: 1 } },
  { $push: { list: { k: 9 } } },
  { $push: { list: { $each: [{ k: 0 }], $sort: { k: 1 } } } },
  { $push: { list: { $each: ['r'], $position: 0 } } },
  { $push: { 'nested.list': 3 } },
  { $push: { list: [1, 2] } },
  { $pull: { list: { k: 2 } } },
  { $pull: { list: { k: { $in: [1, 3, 7] } } } },
  { $pull: { list: { k: { $in: [] } } } },
  { $pull: { list: { k: 2, j: 1 } } },
  { $pull: { list: { k: { $in: ['1'] } } } },
  { $pull: { list: { k: 9 }, fresh: { k: 1 } } },
  { $pull: { list: 'p' } },
  { $pull: { 'nested.list': { k: 1 } } },
  { $pull: { list: { k: { $gte: 2 } } } },
  { $pull: { n: { k: 1 } } },
  { $set: { s: 'y' }, $inc: { n: 1 }, $push: { list: 'x' }, $unset: { z: '' } },
  { $set: { 'nested.deep.v.0.w': 2 }, $push: { list: { $each: ['t'], $slice: -1 } } },
];

describe('applyUpdate on a document sharing its values with a stored one', () => {
  it('gives what mingo alone gives, and never changes the values it shares', () => {
    let compared = 0;
    for (const stored of DOCS) {
      for (const update of UPDATES) {
        const expected = (() => {
          try {
            return withMingo(stored, update);
          } catch {
            return 'throws';
          }
        })();
        const snapshot = cloneDocument(stored);
        const doc = { ...stored };
        let actual: { doc: Record<string, unknown>; changed: boolean } | 'throws';
        try {
          actual = { changed: applyUpdate(doc, update, 'update'), doc };
        } catch {
          actual = 'throws';
        }
        expect(stored).toStrictEqual(snapshot);
        // applyUpdate refuses more than mingo does (MongoDB's type errors); where it applies, the outcome is mingo's.
        if (actual === 'throws') continue;
        expect({ stored, update, outcome: actual }).toStrictEqual({ stored, update, outcome: expected });
        if (expected !== 'throws') expect(Object.keys(actual.doc)).toEqual(Object.keys(expected.doc));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
