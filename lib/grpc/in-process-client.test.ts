import { ApiTokenServiceService } from '../../gen/auth/v1/api_tokens';
import { AppError } from '../errors';
import { silentLogger } from '../log';
import { createServiceClient } from './grpc-client';
import { startGrpcServer, type RunningGrpcServer } from './grpc-server';
import { MessageChannel } from 'node:worker_threads';
import { createInProcessClient } from './in-process-client';
import { createPortChannel, createPortClient, servePort, type PortChannel } from './port-transport';
import { bindService } from './service-binding';

/** The in-process and thread (MessagePort) clients must answer exactly as the network client does, HTTP/2 aside. */
const TOKEN = 'internal-token-for-tests';
let server: RunningGrpcServer;
let channel: PortChannel;

/** A MessagePort pair serving `served`'s services, as the services thread serves the gateway's calls. */
function portTo(served: RunningGrpcServer): PortChannel {
  const { port1, port2 } = new MessageChannel();
  servePort(port2, served.local);
  return createPortChannel(port1);
}

async function startServer() {
  return startGrpcServer({
    name: 'test',
    internalToken: TOKEN,
    logger: silentLogger,
    address: '127.0.0.1:0',
    bindings: [bindService(ApiTokenServiceService, {
      async authenticateApiToken(req, ctx) {
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
}

beforeAll(async () => {
  server = await startServer();
  channel = portTo(server);
});
afterAll(async () => {
  channel.close();
  await server.shutdown();
});

const clients = {
  network: (token = TOKEN, timeoutMs?: number) =>
    createServiceClient(ApiTokenServiceService, server.address, { internalToken: token, timeoutMs }),
  'in-process': (token = TOKEN, timeoutMs?: number) =>
    createInProcessClient(ApiTokenServiceService, server.local.get('auth.v1.ApiTokenService')!, {
      internalToken: token,
      timeoutMs,
    }),
  port: (token = TOKEN, timeoutMs?: number) =>
    createPortClient(ApiTokenServiceService, channel, { internalToken: token, timeoutMs }),
};

describe.each(Object.entries(clients))('%s client', (_kind, client) => {
  test('the platform travels in metadata; the response is the decoded message (proto3 defaults filled)', async () => {
    await expect(client().authenticateApiToken({ tokenId: 't1', clientSecret: 's' }, { platformId: 'Platform:p1' }))
      .resolves.toEqual({ platformId: 'Platform:p1', tokenId: 't1', permissions: [] });
    await expect(client().authenticateApiToken({ tokenId: 't2' } as never)).resolves.toEqual({
      platformId: '',
      tokenId: 't2',
      permissions: [],
    });
  });

  test('an AppError arrives with its code and details; an unexpected failure as INTERNAL_ERROR, no cause', async () => {
    const invalid = await client().authenticateApiToken({ tokenId: 'invalid', clientSecret: '' }).catch((e) => e);
    expect(invalid).toBeInstanceOf(AppError);
    expect([invalid.code, invalid.details]).toEqual(['INVALID_INPUT', {
      errors: [{ field: 'tokenId', constraint: { minLength: 3 } }],
    }]);
    const crash = await client().authenticateApiToken({ tokenId: 'crash', clientSecret: '' }).catch((e) => e);
    expect(crash.code).toBe('INTERNAL_ERROR');
    expect(crash.message).not.toMatch(/hunter2|exploded/);
  });

  test('a caller without the internal token is refused; a call past its deadline fails UNAVAILABLE', async () => {
    await expect(client('wrong').authenticateApiToken({ tokenId: 't', clientSecret: '' })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(client(TOKEN, 50).authenticateApiToken({ tokenId: 'slow', clientSecret: '' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });
});

test.each(['in-process', 'port'])(
  'a service that stopped serving answers UNAVAILABLE (%s), as it would over the network',
  async (kind) => {
    const stopping = await startServer();
    const port = kind === 'port' ? portTo(stopping) : undefined;
    const local = port
      ? createPortClient(ApiTokenServiceService, port, { internalToken: TOKEN })
      : createInProcessClient(ApiTokenServiceService, stopping.local.get('auth.v1.ApiTokenService')!, {
        internalToken: TOKEN,
      });
    await expect(local.ensureSandboxToken({ tokenId: 'a' } as never)).resolves.toMatchObject({ tokenId: 'a' });
    await stopping.shutdown();
    await expect(local.ensureSandboxToken({ tokenId: 'a' } as never)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    port?.close();
  },
);
