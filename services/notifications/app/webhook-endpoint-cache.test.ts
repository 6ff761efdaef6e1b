import { createWebhookEndpointCache } from './webhook-endpoint-cache';

function countingSource(endpoints: Map<string, string>) {
  const asked: string[] = [];
  return {
    asked,
    directory: {
      endpointOf: async (platformId: string) => {
        asked.push(platformId);
        return endpoints.get(platformId);
      },
    },
  };
}

test('a burst of events for one platform costs one lookup', async () => {
  const { asked, directory } = countingSource(new Map([['Platform:a', 'https://a.example/hooks']]));
  const cache = createWebhookEndpointCache(directory, { ttlMs: 60_000 });
  const urls = await Promise.all(Array.from({ length: 50 }, () => cache.endpointOf('Platform:a')));
  expect(new Set(urls)).toEqual(new Set(['https://a.example/hooks']));
  expect(await cache.endpointOf('Platform:a')).toBe('https://a.example/hooks');
  expect(asked).toEqual(['Platform:a']);
});

test('a configuration change is read at the next lookup', async () => {
  const endpoints = new Map([['Platform:a', 'https://old.example/hooks']]);
  const { asked, directory } = countingSource(endpoints);
  const cache = createWebhookEndpointCache(directory, { ttlMs: 60_000 });
  expect(await cache.endpointOf('Platform:a')).toBe('https://old.example/hooks');
  endpoints.set('Platform:a', 'https://new.example/hooks');
  expect(await cache.endpointOf('Platform:a')).toBe('https://old.example/hooks');
  cache.forget('Platform:a');
  expect(await cache.endpointOf('Platform:a')).toBe('https://new.example/hooks');
  expect(asked).toHaveLength(2);
});

test('a platform without an endpoint is asked again, so its first endpoint counts at once', async () => {
  const endpoints = new Map<string, string>();
  const { directory } = countingSource(endpoints);
  const cache = createWebhookEndpointCache(directory, { ttlMs: 60_000 });
  expect(await cache.endpointOf('Platform:b')).toBeUndefined();
  endpoints.set('Platform:b', 'https://b.example/hooks');
  expect(await cache.endpointOf('Platform:b')).toBe('https://b.example/hooks');
});

test('entries expire after ttlMs, and a change during a lookup is not overwritten by it', async () => {
  let now = 0;
  const endpoints = new Map([['Platform:a', 'https://one.example/']]);
  const { asked, directory } = countingSource(endpoints);
  const cache = createWebhookEndpointCache(directory, { ttlMs: 1_000, clock: () => now });
  await cache.endpointOf('Platform:a');
  now = 1_001;
  await cache.endpointOf('Platform:a');
  expect(asked).toHaveLength(2);

  const inFlight = cache.endpointOf('Platform:a'); // cached: no lookup
  await inFlight;
  now = 5_000;
  const racing = cache.endpointOf('Platform:a');
  cache.forget('Platform:a');
  endpoints.set('Platform:a', 'https://two.example/');
  await racing;
  expect(await cache.endpointOf('Platform:a')).toBe('https://two.example/');
});

test('with no time to live (the default) every lookup reads the source; concurrent ones share one read', async () => {
  const endpoints = new Map([['Platform:a', 'https://old.example/hooks']]);
  const { asked, directory } = countingSource(endpoints);
  const cache = createWebhookEndpointCache(directory, { ttlMs: 0 });
  await Promise.all([cache.endpointOf('Platform:a'), cache.endpointOf('Platform:a')]);
  expect(asked).toHaveLength(1);
  endpoints.set('Platform:a', 'https://new.example/hooks');
  expect(await cache.endpointOf('Platform:a')).toBe('https://new.example/hooks');
});

test('a fresh lookup reads the source whatever is remembered', async () => {
  const endpoints = new Map([['Platform:a', 'https://old.example/hooks']]);
  const { directory } = countingSource(endpoints);
  const cache = createWebhookEndpointCache(directory, { ttlMs: 60_000 });
  expect(await cache.endpointOf('Platform:a')).toBe('https://old.example/hooks');
  endpoints.set('Platform:a', 'https://new.example/hooks');
  expect(await cache.endpointOf('Platform:a', { fresh: true })).toBe('https://new.example/hooks');
  expect(await cache.endpointOf('Platform:a')).toBe('https://new.example/hooks');
});
