import { createServer } from 'node:net';
import { AddressInUseError, assertAddressFree, sandboxExposure } from './start-checks';

test.each(
  [
    { host: '127.0.0.1', publishedSecret: true, component: 'all', mongodb: false, expected: 'private' },
    { host: 'localhost', publishedSecret: true, component: 'gateway', mongodb: true, expected: 'private' },
    { host: '::1', publishedSecret: true, component: 'gateway', mongodb: false, expected: 'private' },
    { host: '0.0.0.0', publishedSecret: false, component: 'gateway', mongodb: true, expected: 'private' },
    { host: '0.0.0.0', publishedSecret: true, component: 'all', mongodb: false, expected: 'exposed-sandbox' },
    { host: '10.0.0.5', publishedSecret: true, component: 'all', mongodb: false, expected: 'exposed-sandbox' },
    { host: '0.0.0.0', publishedSecret: true, component: 'all', mongodb: true, expected: 'exposed-production' },
    { host: '0.0.0.0', publishedSecret: true, component: 'gateway', mongodb: false, expected: 'exposed-production' },
  ] as const,
)('HOST $host, published secret $publishedSecret, $component, MongoDB $mongodb: $expected', (
  { host, publishedSecret, component, mongodb, expected },
) => {
  expect(sandboxExposure({ host, publishedSecret, component, mongodb })).toBe(expected);
});

test('a taken address is reported; a free one is let go again', async () => {
  const holder = createServer();
  const port = await new Promise<number>((resolve) =>
    holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port))
  );
  try {
    await expect(assertAddressFree('127.0.0.1', port)).rejects.toBeInstanceOf(AddressInUseError);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
  await assertAddressFree('127.0.0.1', port);
  await assertAddressFree('127.0.0.1', port); // the check itself did not keep it
});
