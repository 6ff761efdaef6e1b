import { isId } from '../../../../lib/ids';
import {
  cardFundingSourceId,
  checkRevocable,
  delegatedKeyRequestErrors,
  delegatedKeyView,
  delegationRefusal,
  limitCurrencyErrors,
  type DelegatedKey,
} from './delegated-key';

const key = (extra: Partial<DelegatedKey> = {}): DelegatedKey => ({
  id: 'DelegatedKey:1',
  platformId: 'Platform:1',
  cardId: 'Card:1',
  fundingSourceId: 'CardFundingSource:1',
  accountId: 'InternalAccount:1',
  publicKey: '02'.padEnd(66, 'a'),
  sealedPrivateKey: 'v1.sealed',
  nickname: 'k',
  status: 'ACTIVE',
  createRequestId: 'Request:1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

test('a funding source id is a CardFundingSource id derived from the card and the account alone', () => {
  const id = cardFundingSourceId('Card:a', 'InternalAccount:b');
  expect(isId('CardFundingSource', id)).toBe(true);
  expect(cardFundingSourceId('Card:a', 'InternalAccount:b')).toBe(id);
  expect(cardFundingSourceId('Card:a', 'InternalAccount:c')).not.toBe(id);
  expect(cardFundingSourceId('Card:b', 'InternalAccount:b')).not.toBe(id);
});

test('a request lists every invalid member, duplicates of a currency included', () => {
  expect(
    delegatedKeyRequestErrors({
      cardId: '',
      internalAccountId: '',
      nickname: '',
      spendingLimits: [{ currencyCode: 'usd', maxPerTransaction: 1 }, { currencyCode: 'USD', maxPerTransaction: 0 }, {
        currencyCode: 'USD',
        maxPerTransaction: 5,
      }],
    }).map((e) => e.field),
  ).toEqual([
    'cardId',
    'internalAccountId',
    'nickname',
    'spendingLimits[0].currencyCode',
    'spendingLimits[1].maxPerTransaction',
    'spendingLimits[2].currencyCode',
  ]);
  expect(
    delegatedKeyRequestErrors({ cardId: 'Card:1', internalAccountId: 'InternalAccount:1', nickname: 'x'.repeat(256) }),
  ).toEqual([]);
  expect(
    delegatedKeyRequestErrors({ cardId: 'Card:1', internalAccountId: 'InternalAccount:1', nickname: 'x'.repeat(257) })
      .map((e) => e.field),
  ).toEqual(['nickname']);
  expect(
    limitCurrencyErrors(
      [{ currencyCode: 'USD', maxPerTransaction: 1 }, { currencyCode: 'USDB', maxPerTransaction: 1 }],
      'USD',
    ).map((e) => e.field),
  )
    .toEqual(['spendingLimits[1].currencyCode']);
});

test("only an ACTIVE key funds, and within the limit of the transaction's currency (none: unlimited)", () => {
  expect(delegationRefusal(null, 'USD', 1)).toBe('DELEGATED_KEY_REQUIRED');
  expect(delegationRefusal(key({ status: 'PENDING' }), 'USD', 1)).toBe('DELEGATED_KEY_REQUIRED');
  expect(delegationRefusal(key({ status: 'REVOKED' }), 'USD', 1)).toBe('DELEGATED_KEY_REQUIRED');
  expect(delegationRefusal(key(), 'USD', 1_000_000)).toBeUndefined();
  const limited = key({ spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 500 }] });
  expect(delegationRefusal(limited, 'USD', 500)).toBeUndefined();
  expect(delegationRefusal(limited, 'USD', 501)).toBe('SPENDING_LIMIT_EXCEEDED');
  expect(delegationRefusal(limited, 'USDB', 501)).toBeUndefined();
});

test("only ACTIVE is revocable; the view never carries the sealed key or the legs' state", () => {
  expect(() => checkRevocable(key())).not.toThrow();
  for (const status of ['PENDING', 'REVOKED'] as const) {
    expect(() => checkRevocable(key({ status }))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  }
  const view = delegatedKeyView(
    key({ policyChallenge: { payloadToSign: 'p', requestId: 'Request:2', expiresAt: 'x' } }),
  );
  expect(Object.keys(view).sort()).toEqual([
    'accountId',
    'cardId',
    'createdAt',
    'fundingSourceId',
    'id',
    'nickname',
    'publicKey',
    'spendingLimits',
    'status',
    'updatedAt',
  ]);
});
