import { randomBytes } from 'node:crypto';
import { isId } from '../../../../lib/ids';
import { createRecentLookups } from './recent-lookups';
import { createSignedLookupIds, lookupIdKey } from './signed-lookup-ids';
import { checkedSignedLookup } from './signed-lookups';

const ids = createSignedLookupIds(lookupIdKey(randomBytes(32)));
const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
const ACCOUNT = { accountId: 'ExternalAccount:22222222-2222-4222-8222-222222222222' };
const expiresAt = new Date('2026-11-26T13:45:07.000Z');

test('a signed id has the Lookup:<uuid> form and gives back the expiry and the currencies in order', () => {
  const id = ids.sign({ platformId: PLATFORM, target: ACCOUNT, expiresAt, codes: ['MXN', 'USD', 'USDC'] })!;
  expect(isId('Lookup', id)).toBe(true);
  expect(ids.isSigned(id)).toBe(true);
  expect(ids.verify(PLATFORM, ACCOUNT, id)).toEqual({ expiresAt, codes: ['MXN', 'USD', 'USDC'] });
});

test('an UMA receiver verifies whatever the case of its address', () => {
  const id = ids.sign({
    platformId: PLATFORM,
    target: { receiverUmaAddress: '$Alice@Example.com' },
    expiresAt,
    codes: ['EUR'],
  })!;
  expect(ids.verify(PLATFORM, { receiverUmaAddress: '$alice@example.com' }, id)).toEqual({ expiresAt, codes: ['EUR'] });
});

test('another platform, another receiver, another key or any changed digit does not verify', () => {
  const id = ids.sign({ platformId: PLATFORM, target: ACCOUNT, expiresAt, codes: ['MXN'] })!;
  expect(ids.verify('Platform:33333333-3333-4333-8333-333333333333', ACCOUNT, id)).toBeNull();
  expect(ids.verify(PLATFORM, { accountId: 'ExternalAccount:44444444-4444-4444-8444-444444444444' }, id)).toBeNull();
  expect(createSignedLookupIds(lookupIdKey(randomBytes(32))).verify(PLATFORM, ACCOUNT, id)).toBeNull();
  const hexAt = [...id.matchAll(/[0-9a-f]/g)].map((m) => m.index!).filter((i) => i > 'Lookup:'.length);
  for (const at of hexAt) {
    const changed = id.slice(0, at) + (id[at] === '0' ? '1' : '0') + id.slice(at + 1);
    expect(ids.verify(PLATFORM, ACCOUNT, changed)).toBeNull();
  }
});

test('a random (stored) lookup id is not a signed one', () => {
  expect(ids.isSigned('Lookup:99999999-9999-4999-8999-999999999999')).toBe(false);
  expect(ids.verify(PLATFORM, ACCOUNT, 'Lookup:99999999-9999-4999-8999-999999999999')).toBeNull();
});

test('an offer that does not fit is not signed: more than three currencies, or one outside the catalogue', () => {
  expect(ids.sign({ platformId: PLATFORM, target: ACCOUNT, expiresAt, codes: ['MXN', 'USD', 'EUR', 'GBP'] }))
    .toBeUndefined();
  expect(ids.sign({ platformId: PLATFORM, target: ACCOUNT, expiresAt, codes: ['XXX'] })).toBeUndefined();
});

test('a quote citing a signed lookup after its expiry is refused as for a stored one', () => {
  const id = ids.sign({ platformId: PLATFORM, target: ACCOUNT, expiresAt, codes: ['MXN'] })!;
  const signed = { ids, recent: createRecentLookups({ now: () => expiresAt }) };
  const destination = {
    destinationType: 'ACCOUNT' as const,
    accountId: ACCOUNT.accountId,
    accountKind: 'EXTERNAL' as const,
    currency: 'MXN',
  };
  const before = new Date(expiresAt.getTime() - 1);
  expect(checkedSignedLookup({
    signed,
    caller: { platformId: PLATFORM },
    lookupId: id,
    destination,
    now: before,
  })).toEqual({
    expiresAt: expiresAt.toISOString(),
    offers: [{ currency: expect.objectContaining({ code: 'MXN' }), min: expect.any(Number), max: expect.any(Number) }],
  });
  expect(() =>
    checkedSignedLookup({
      signed,
      caller: { platformId: PLATFORM },
      lookupId: id,
      destination,
      now: expiresAt,
    })
  ).toThrow(expect.objectContaining({
    code: 'INVALID_INPUT',
    details: { errors: [{ field: 'lookupId', message: 'has expired; look the receiver up again' }] },
  }));
});
