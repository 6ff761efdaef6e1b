import { DocumentCache } from './document-cache';

const stored = (seq: number, key: string) => ({ seq, key, doc: { _id: key, seq } });

test('a document is found by row and by key until it is evicted, deleted or replaced under its key', () => {
  const cache = new DocumentCache(2);
  cache.set('c', stored(1, 'a'));
  cache.set('c', stored(2, 'b'));
  expect(cache.getByKey('c', 'a')?.seq).toBe(1); // now the most recent: b goes first
  cache.set('c', stored(3, 'c'));
  expect(cache.getByKey('c', 'b')).toBeUndefined();
  expect(cache.get('c', 2)).toBeUndefined();
  expect(cache.getByKey('other', 'a')).toBeUndefined();

  cache.delete('c', 1);
  expect(cache.getByKey('c', 'a')).toBeUndefined();
  cache.set('c', stored(4, 'c')); // deleted and inserted again under the same key: a new row
  cache.delete('c', 3);
  expect(cache.getByKey('c', 'c')?.seq).toBe(4);
  cache.clear();
  expect(cache.getByKey('c', 'c')).toBeUndefined();
});

test('a cache of no capacity holds nothing', () => {
  const cache = new DocumentCache(0);
  cache.set('c', stored(1, 'a'));
  expect(cache.getByKey('c', 'a')).toBeUndefined();
});
