import { Webhook } from 'standardwebhooks';
import { standardWebhooksHeaders, standardWebhooksSecret } from './standard-webhooks';

const seed = Buffer.alloc(32, 7);
const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';

describe('Standard Webhooks v1 signatures', () => {
  const secret = standardWebhooksSecret(seed, PLATFORM, 'https://hooks.example.com/grid');
  const body = '{"id":"Webhook:1","type":"TEST","timestamp":"2026-01-01T00:00:00.000Z"}';

  it('a secret per platform and endpoint, in the whsec_ form', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(standardWebhooksSecret(seed, PLATFORM, 'https://hooks.example.com/other')).not.toBe(secret);
    expect(
      standardWebhooksSecret(seed, 'Platform:00000000-0000-4000-8000-000000000002', 'https://hooks.example.com/grid'),
    ).not.toBe(secret);
    expect(standardWebhooksSecret(seed, PLATFORM, 'https://hooks.example.com/grid')).toBe(secret);
  });

  it('the standardwebhooks library verifies what we sign and refuses a changed body or another secret', () => {
    const headers = standardWebhooksHeaders(secret, 'Webhook:1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('TEST', 'TESt'), headers)).toThrow(
      'No matching signature found',
    );
    expect(() => new Webhook(standardWebhooksSecret(seed, PLATFORM, 'https://x.example')).verify(body, headers))
      .toThrow('No matching signature found');
  });

  it('a signature older than the library tolerates (5 minutes) is refused', () => {
    const headers = standardWebhooksHeaders(secret, 'Webhook:1', new Date(Date.now() - 10 * 60_000), body);
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('Message timestamp too old');
  });
});
