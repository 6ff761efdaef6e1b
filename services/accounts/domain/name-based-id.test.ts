import { isId } from '../../../lib/ids';
import { internalAccountId, nameBasedUuid, platformConfigId } from './name-based-id';

describe('name-based ids', () => {
  test('match RFC 4122 version 5 (the DNS namespace vector for www.example.com)', () => {
    expect(nameBasedUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  test('an internal account id is a valid InternalAccount id, the same each time for one owner, currency, type', () => {
    const id = internalAccountId('Customer:7c4a8d09-ca37-4e3a-9f1b-0b5e3c2d1a00', 'USD', 'INTERNAL_FIAT');
    expect(isId('InternalAccount', id)).toBe(true);
    expect(internalAccountId('Customer:7c4a8d09-ca37-4e3a-9f1b-0b5e3c2d1a00', 'USD', 'INTERNAL_FIAT')).toBe(id);
  });

  test('differs by owner, currency and type', () => {
    const ids = new Set([
      internalAccountId('Customer:a', 'USD', 'INTERNAL_FIAT'),
      internalAccountId('Customer:b', 'USD', 'INTERNAL_FIAT'),
      internalAccountId('Customer:a', 'EUR', 'INTERNAL_FIAT'),
      internalAccountId('Customer:a', 'USD', 'EMBEDDED_WALLET'),
    ]);
    expect(ids.size).toBe(4);
  });

  test('a platform config id is stable per platform', () => {
    expect(platformConfigId('Platform:x')).toMatch(
      /^PlatformConfig:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(platformConfigId('Platform:x')).toBe(platformConfigId('Platform:x'));
    expect(platformConfigId('Platform:x')).not.toBe(platformConfigId('Platform:y'));
  });
});
