import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { ApiTokenServiceService } from '../../gen/auth/v1/api_tokens';
import { BadRequest, Status } from '../../gen/google/rpc/status';
import { AppError } from '../errors';
import { silentLogger } from '../log';
import { inSpan, startTelemetry } from '../telemetry';
import { toStatusObject } from './error-status';
import { createServiceClient } from './grpc-client';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitFileDescriptorSet, startGrpcServer, type RunningGrpcServer } from './grpc-server';
import { createHealthProbe } from './health-probe';
import { bindService } from './service-binding';
import { MessageChannel } from 'node:worker_threads';
import type { CallContext } from './call-context';
import { createPortChannel, createPortClient, servePort, type PortChannel } from './port-transport';

const exporter = new InMemorySpanExporter();
startTelemetry({ serviceName: 'test', exporter });

const TOKEN = 'internal-token-for-tests';
let server: RunningGrpcServer;
const seenContexts: CallContext[] = [];
/** The `all` mode's thread transport to the same server's services (port-transport.ts). */
let channel: PortChannel;

beforeAll(async () => {
  server = await startGrpcServer({
    name: 'test',
    internalToken: TOKEN,
    logger: silentLogger,
    address: '127.0.0.1:0',
    bindings: [bindService(ApiTokenServiceService, {
      async authenticateApiToken(req, ctx) {
        seenContexts.push(ctx);
        if (req.tokenId === 'invalid') {
          throw AppError.invalidInput('bad', [{ field: 'tokenId', constraint: { minLength: 3 } }]);
        }
        if (req.tokenId === 'slow') await new Promise((r) => setTimeout(r, 300));
        if (req.tokenId === 'crash') throw new Error('database exploded with secret=hunter2');
        return { platformId: ctx.platformId ?? '', tokenId: req.tokenId, permissions: [] };
      },
      async ensureSandboxToken(req) {
        return { tokenId: req.tokenId, created: true };
      },
      async createApiToken() {
        return {};
      },
      async getApiToken() {
        return {};
      },
      async listApiTokens() {
        return { data: [], hasMore: false, totalCount: 0 };
      },
      async deleteApiToken() {
        return { clientId: '' };
      },
    })],
  });
  const { port1, port2 } = new MessageChannel();
  servePort(port2, server.local);
  channel = createPortChannel(port1);
});
afterAll(async () => {
  channel.close();
  await server.shutdown();
});

const transports = {
  'gRPC': (internalToken = TOKEN) => createServiceClient(ApiTokenServiceService, server.address, { internalToken }),
  'thread port': (internalToken = TOKEN) => createPortClient(ApiTokenServiceService, channel, { internalToken }),
};

describe.each(Object.entries(transports))('over %s', (_transport, connect) => {
  test('context travels in metadata and the response comes back typed', async () => {
    const client = connect();
    seenContexts.length = 0;
    const fieldErrors = [{ field: 'amount', message: 'must be positive' }];
    const res = await client.authenticateApiToken({ tokenId: 't1', clientSecret: 's' }, {
      platformId: 'Platform:p1',
      correlationId: 'corr-1',
      fieldErrors,
    });
    expect(res).toEqual({ platformId: 'Platform:p1', tokenId: 't1', permissions: [] });
    expect(seenContexts).toEqual([{ platformId: 'Platform:p1', correlationId: 'corr-1', fieldErrors }]);
    client.close();
  });

  test('an AppError crosses with its code and details intact', async () => {
    const client = connect();
    const err = await client.authenticateApiToken({ tokenId: 'invalid', clientSecret: '' }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details).toEqual({ errors: [{ field: 'tokenId', constraint: { minLength: 3 } }] });
    client.close();
  });

  test('an unexpected failure becomes INTERNAL_ERROR without leaking its cause', async () => {
    const client = connect();
    const err = await client.authenticateApiToken({ tokenId: 'crash', clientSecret: '' }).catch((e) => e);
    expect(err.code).toBe('INTERNAL_ERROR');
    expect(err.message).not.toMatch(/hunter2|exploded/);
    client.close();
  });

  test('a caller without the internal token is refused', async () => {
    const client = connect('wrong');
    const err = await client.authenticateApiToken({ tokenId: 't', clientSecret: '' }).catch((e) => e);
    expect(err.code).toBe('UNAUTHORIZED');
    client.close();
  });

  test('client and server spans share one trace', async () => {
    exporter.reset();
    const client = connect();
    await inSpan('root', {}, () => client.authenticateApiToken({ tokenId: 't2', clientSecret: '' }));
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'root')!;
    const serverSpan = spans.find((s) => s.name.endsWith('AuthenticateApiToken') && s.kind === 1)!;
    expect(serverSpan.spanContext().traceId).toBe(root.spanContext().traceId);
    client.close();
  });
});

test('an unreachable server is UNAVAILABLE', async () => {
  const client = createServiceClient(ApiTokenServiceService, '127.0.0.1:1', { internalToken: TOKEN, timeoutMs: 500 });
  const err = await client.authenticateApiToken({ tokenId: 't', clientSecret: '' }).catch((e) => e);
  expect(err.code).toBe('UNAVAILABLE');
  client.close();
});

test('the standard health check answers SERVING without the internal token', async () => {
  const probe = createHealthProbe(server.address);
  expect(await probe.isServing()).toBe(true);
  probe.close();
});

test('server reflection lists the services', async () => {
  const { Client, credentials } = await import('@grpc/grpc-js');
  const client = new Client(server.address, credentials.createInsecure());
  // ServerReflectionRequest { list_services = 7 } and the reply's ListServiceResponse carry plain strings.
  const request = Buffer.from([0x3a, 0x00]);
  const names = await new Promise<string>((resolve, reject) => {
    const call = client.makeBidiStreamRequest(
      '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo',
      (b: Buffer) => b,
      (b: Buffer) => b,
      {},
    );
    call.on('data', (reply: Buffer) => {
      resolve(reply.toString('latin1'));
      call.end();
    });
    call.on('error', reject);
    call.write(request);
  });
  expect(names).toContain('auth.v1.ApiTokenService');
  client.close();
});

test('server reflection finds the file that declares a message, with the files it imports', async () => {
  const { Client, credentials } = await import('@grpc/grpc-js');
  const client = new Client(server.address, credentials.createInsecure());
  // ServerReflectionRequest { file_containing_symbol = 4 }; the reply carries encoded FileDescriptorProtos.
  const symbol = Buffer.from('auth.v1.AuthenticateApiTokenRequest');
  const request = Buffer.concat([Buffer.from([0x22, symbol.length]), symbol]);
  const reply = await new Promise<string>((resolve, reject) => {
    const call = client.makeBidiStreamRequest(
      '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo',
      (b: Buffer) => b,
      (b: Buffer) => b,
      {},
    );
    call.on('data', (r: Buffer) => {
      resolve(r.toString('latin1'));
      call.end();
    });
    call.on('error', reject);
    call.write(request);
  });
  expect(reply).toContain('AuthenticateApiTokenRequest');
  expect(reply).toContain('auth/v1/api_tokens.proto');
  client.close();
});

test('the descriptor set splits into its files without decoding them', () => {
  const files = splitFileDescriptorSet(readFileSync(join(__dirname, '..', '..', 'gen', 'descriptor.binpb')));
  const names = files.map((f) => f.subarray(2, 2 + f[1]).toString()); // field 1 (name) comes first
  expect(names).toEqual(expect.arrayContaining(['auth/v1/api_tokens.proto', 'google/rpc/status.proto']));
  expect(() => splitFileDescriptorSet(Buffer.from([0x12, 0x00]))).toThrow(/unexpected field/);
});

test('shutdown drains a call in flight, then refuses new ones', async () => {
  let received!: () => void;
  const arrived = new Promise<void>((r) => {
    received = r;
  });
  const own = await startGrpcServer({
    name: 'drain',
    internalToken: TOKEN,
    logger: silentLogger,
    address: '127.0.0.1:0',
    bindings: [bindService(ApiTokenServiceService, {
      async authenticateApiToken(req) {
        received();
        await new Promise((r) => setTimeout(r, 300));
        return { platformId: 'p', tokenId: req.tokenId, permissions: [] };
      },
      async ensureSandboxToken(req) {
        return { tokenId: req.tokenId, created: false };
      },
      async createApiToken() {
        return {};
      },
      async getApiToken() {
        return {};
      },
      async listApiTokens() {
        return { data: [], hasMore: false, totalCount: 0 };
      },
      async deleteApiToken() {
        return { clientId: '' };
      },
    })],
  });
  const client = createServiceClient(ApiTokenServiceService, own.address, { internalToken: TOKEN, timeoutMs: 2000 });
  const inFlight = client.authenticateApiToken({ tokenId: 'slow', clientSecret: '' });
  await arrived; // the call is in the handler (a fixed pause is not enough on a loaded machine)
  const stopped = own.shutdown();
  await expect(inFlight).resolves.toEqual({ platformId: 'p', tokenId: 'slow', permissions: [] });
  await stopped;
  await expect(client.authenticateApiToken({ tokenId: 'late', clientSecret: '' })).rejects.toMatchObject({
    code: 'UNAVAILABLE',
  });
  client.close();
});

test('INVALID_INPUT carries its field list as a standard google.rpc.BadRequest beside the ErrorInfo', () => {
  const error = AppError.invalidInput('Invalid quote request', [
    { field: 'source.accountId', message: 'is required' },
    {
      field: 'lockedCurrencySide',
      message: 'must be one of SENDING, RECEIVING',
      constraint: { enum: ['SENDING', 'RECEIVING'] },
    },
  ]);
  const raw = toStatusObject(error).metadata!.get('grpc-status-details-bin')[0] as Buffer;
  const details = Status.decode(raw).details;
  expect(details.map((d) => d.typeUrl)).toEqual([
    'type.googleapis.com/google.rpc.ErrorInfo',
    'type.googleapis.com/google.rpc.BadRequest',
  ]);
  expect(BadRequest.decode(details[1].value).fieldViolations).toEqual([
    { field: 'source.accountId', description: 'is required', reason: '' },
    { field: 'lockedCurrencySide', description: 'must be one of SENDING, RECEIVING', reason: 'enum' },
  ]);
});
