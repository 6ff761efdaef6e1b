import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHttpSender } from './webhook-http-sender';

let server: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"secret":"what answered here"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (sender: ReturnType<typeof createWebhookHttpSender>, url: string) =>
  sender.post({ url, body: '{"id":"Webhook:x"}', headers: { 'content-type': 'application/json' }, timeoutMs: 2_000 });

describe('outside the sandbox, server-side request forgery is refused before any connection', () => {
  const toLocalhost = (
    _host: string,
    callback: (err: null, addresses: { address: string; family: number }[]) => void,
  ) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
  const sender = createWebhookHttpSender({ allowLocal: false }, toLocalhost);

  test.each([
    ['plain http to loopback', () => `http://127.0.0.1:${port}/anything`, /must use https/],
    ['loopback', () => `https://127.0.0.1:${port}/anything`, /127\.0\.0\.1/],
    ['a private network', () => 'https://10.0.0.1/hooks', /10\.0\.0\.1/],
    ['the cloud metadata service', () => 'https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254/],
    ['IPv6 loopback', () => `https://[::1]:${port}/`, /::1/],
    [
      'a hostname resolving to 127.0.0.1 (checked at connection, so DNS cannot rebind it)',
      () => `https://hooks.example.com:${port}/`,
      /resolves to a loopback/,
    ],
  ])('%s', async (_what, url, reason) => {
    const before = hits;
    const answer = await post(sender, url());
    expect(answer).toEqual({ error: expect.stringMatching(reason) });
    expect(answer).not.toHaveProperty('body');
    expect(hits).toBe(before);
  });
});

test('in the sandbox a local receiver is reached', async () => {
  const answer = await post(createWebhookHttpSender({ allowLocal: true }), `http://127.0.0.1:${port}/hooks`);
  expect(answer).toEqual({ statusCode: 200, body: '{"secret":"what answered here"}' });
});

test('a receiver that does not answer in time is a timeout, not a hang', async () => {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const answer = await createWebhookHttpSender().post({
    url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
    body: '{}',
    headers: {},
    timeoutMs: 100,
  });
  expect(answer).toEqual({ error: 'no answer within 100 ms' });
  silent.closeAllConnections();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});
