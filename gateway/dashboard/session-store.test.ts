import { createSessionStore, sameSecret } from './session-store';

test('a session is found by its id until it expires, then never again', () => {
  let now = 1_000;
  const store = createSessionStore({ ttlMs: 60_000, now: () => now });
  const { sessionId, session } = store.open({ tokenId: 't1' }, 'Basic x');
  expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(session).toMatchObject({ tokenId: 't1', authorization: 'Basic x', expiresAt: 61_000 });
  expect(session.csrfToken).not.toBe(sessionId);
  expect(store.find(sessionId)).toBe(session);
  now = 60_999;
  expect(store.find(sessionId)).toBe(session);
  now = 61_000;
  expect(store.find(sessionId)).toBeUndefined();
  now = 1_000;
  expect(store.find(sessionId)).toBeUndefined(); // forgotten, not just hidden
});

test('ending a session; the oldest goes first when full', () => {
  const store = createSessionStore({ maxSessions: 2 });
  const a = store.open({ tokenId: 't1' }, 'A');
  const b = store.open({ tokenId: 't2' }, 'B');
  store.end(a.sessionId);
  expect(store.find(a.sessionId)).toBeUndefined();
  expect(store.find(b.sessionId)).toBeDefined();
  const c = store.open({ tokenId: 't2' }, 'C');
  const d = store.open({ tokenId: 't3' }, 'D');
  expect(store.find(b.sessionId)).toBeUndefined(); // the oldest, evicted
  expect(store.find(c.sessionId)).toBeDefined();
  expect(store.find(d.sessionId)).toBeDefined();
  expect(store.find('not-a-session')).toBeUndefined();
});

test('secrets compare equal only when equal, whatever their lengths', () => {
  expect(sameSecret('abc', 'abc')).toBe(true);
  expect(sameSecret('abc', 'abd')).toBe(false);
  expect(sameSecret('abc', 'abcd')).toBe(false);
  expect(sameSecret('', 'x')).toBe(false);
});
