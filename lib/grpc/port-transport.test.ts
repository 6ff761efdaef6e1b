import { MessageChannel, Worker } from 'node:worker_threads';
import { ApiTokenServiceService } from '../../gen/auth/v1/api_tokens';
import { AppError } from '../errors';
import { silentLogger } from '../log';
import { startGrpcServer, type RunningGrpcServer } from './grpc-server';
import { createPortChannel, createPortClient, servePort } from './port-transport';
import { bindService } from './service-binding';

/**
 * What only the thread transport has to get right (its shared contract with the network client is
 * in grpc-plumbing.test.ts and in-process-client.test.ts): calls in flight when the other thread
 * goes away, services it does not host, and replies of calls already past their deadline.
 */
const TOKEN = 'internal-token-for-tests';
let server: RunningGrpcServer;
let release: () => void = () => undefined;

beforeAll(async () => {
  server = await startGrpcServer({
    name: 'test',
    internalToken: TOKEN,
    logger: silentLogger,
    address: '127.0.0.1:0',
    bindings: [bindService(ApiTokenServiceService, {
      async authenticateApiToken(req) {
        if (req.tokenId === 'held') {
          await new Promise<void>((r) => {
            release = r;
          });
        }
        return { platformId: 'p', tokenId: req.tokenId, permissions: [] };
      },
      async ensureSandboxToken(req) {
        return { tokenId: req.tokenId, created: true };
      },
      async createApiToken() {
        return {};
      },
      async getApiToken(req) {
        return { token: { id: req.id, permissions: [] } } as never;
      },
      async listApiTokens() {
        return { data: [], hasMore: false, totalCount: 0 };
      },
      async deleteApiToken() {
        return { clientId: '' };
      },
    })],
  });
});
afterAll(async () => {
  release();
  await server.shutdown();
});

test('calls in flight when the other thread exits are rejected UNAVAILABLE, and so is every later call', async () => {
  const { port1, port2 } = new MessageChannel();
  // A thread that takes the port and exits on its first call, without answering it.
  const worker = new Worker("require('node:worker_threads').workerData.port.on('message', () => process.exit(0))", {
    eval: true,
    workerData: { port: port2 },
    transferList: [port2],
  });
  const channel = createPortChannel(port1);
  const client = createPortClient(ApiTokenServiceService, channel, { internalToken: TOKEN, timeoutMs: 60_000 });
  const inFlight = client.authenticateApiToken({ tokenId: 't', clientSecret: '' }).catch((e) => e);
  const error = await inFlight;
  expect(error).toBeInstanceOf(AppError);
  expect(error.code).toBe('UNAVAILABLE');
  expect(channel.pending).toBe(0);
  await expect(client.authenticateApiToken({ tokenId: 't', clientSecret: '' })).rejects.toMatchObject({
    code: 'UNAVAILABLE',
  });
  await worker.terminate();
});

test('a service the other side does not host answers UNAVAILABLE', async () => {
  const { port1, port2 } = new MessageChannel();
  servePort(port2, new Map());
  const channel = createPortChannel(port1);
  const client = createPortClient(ApiTokenServiceService, channel, { internalToken: TOKEN });
  await expect(client.authenticateApiToken({ tokenId: 't', clientSecret: '' })).rejects.toMatchObject({
    code: 'UNAVAILABLE',
  });
  channel.close();
});

test('a call past its deadline fails UNAVAILABLE; its late reply is dropped and the port serves on', async () => {
  const { port1, port2 } = new MessageChannel();
  servePort(port2, server.local);
  const channel = createPortChannel(port1);
  const impatient = createPortClient(ApiTokenServiceService, channel, { internalToken: TOKEN, timeoutMs: 50 });
  await expect(impatient.authenticateApiToken({ tokenId: 'held', clientSecret: '' })).rejects.toMatchObject({
    code: 'UNAVAILABLE',
  });
  expect(channel.pending).toBe(0);
  release();
  const client = createPortClient(ApiTokenServiceService, channel, { internalToken: TOKEN });
  await expect(client.authenticateApiToken({ tokenId: 'after', clientSecret: '' })).resolves.toEqual({
    platformId: 'p',
    tokenId: 'after',
    permissions: [],
  });
  channel.close();
});

test('calls made in one turn (one batch) are each answered with their own reply, empty messages included', async () => {
  const { port1, port2 } = new MessageChannel();
  servePort(port2, server.local);
  const channel = createPortChannel(port1);
  const client = createPortClient(ApiTokenServiceService, channel, { internalToken: TOKEN });
  const replies = await Promise.all([
    client.createApiToken({ permissions: [] } as never),
    client.createApiToken({ permissions: [] } as never),
    client.getApiToken({ id: 'a' }),
    client.getApiToken({ id: 'b' }),
    client.authenticateApiToken({ tokenId: 'c', clientSecret: '' }),
  ]);
  expect(replies.map((r) => (r as { token?: { id: string } }).token?.id ?? (r as { tokenId?: string }).tokenId))
    .toEqual([undefined, undefined, 'a', 'b', 'c']);
  channel.close();
});
