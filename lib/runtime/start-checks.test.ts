import { createServer } from 'node:net';
import { AddressInUseError, assertAddressFree, sandboxExposure } from './start-checks';

test.each([
  ['127.0.0.1', true, 'all', false, 'private'],
  ['localhost', true, 'gateway', true, 'private'],
  ['::1', true, 'gateway', false, 'private'],
  ['0.0.0.0', false, 'gateway', true, 'private'],
  ['0.0.0.0', true, 'all', false, 'exposed-sandbox'],
  ['10.0.0.5', true, 'all', false, 'exposed-sandbox'],
  ['0.0.0.0', true, 'all', true, 'exposed-production'],
  ['0.0.0.0', true, 'gateway', false, 'exposed-production'],
] as const)('HOST %s, published secret %s, %s, MongoDB %s: %s', (host, publishedSecret, component, mongodb, expected) => {
  expect(sandboxExposure({ host, publishedSecret, component, mongodb })).toBe(expected);
});

test('a taken address is reported; a free one is let go again', async () => {
  const holder = createServer();
  const port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)));
  try {
    await expect(assertAddressFree('127.0.0.1', port)).rejects.toBeInstanceOf(AddressInUseError);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
  await assertAddressFree('127.0.0.1', port);
  await assertAddressFree('127.0.0.1', port); // the check itself did not keep it
});
