import { readFileSync } from 'node:fs';
import { credentials } from '@grpc/grpc-js';
import { service as HealthService } from 'grpc-health-check';
import { makeGrpcTestCertificates } from '../../test/fixtures/grpc-test-certificates';
import { silentLogger } from '../log';
import { ConfigError } from '../config';
import { createServiceClient } from './grpc-client';
import { startGrpcServer, type RunningGrpcServer } from './grpc-server';
import { createHealthProbe } from './health-probe';
import { readGrpcTls, type GrpcTls } from './transport-security';

/** Mutual TLS between components, with a throwaway CA; a stranger holds a certificate of another CA. */
const certs = makeGrpcTestCertificates();
const { at, settings } = certs;
certs.issue('accounts');
certs.issue('gateway');
certs.issue('stranger', 'other-ca');

const configError = (env: NodeJS.ProcessEnv) => {
  try {
    readGrpcTls(env);
  } catch (err) {
    return err instanceof ConfigError ? err.message : String(err);
  }
  return undefined;
};

let server: RunningGrpcServer;
let gateway: GrpcTls;

beforeAll(async () => {
  server = await startGrpcServer({
    name: 'accounts',
    bindings: [],
    internalToken: 'token',
    logger: silentLogger,
    address: '127.0.0.1:0',
    tls: readGrpcTls(settings('accounts')),
  });
  gateway = readGrpcTls(settings('gateway'))!;
});
afterAll(async () => {
  await server?.shutdown(100);
  certs.remove();
});

describe('settings, checked at start', () => {
  test('none: plaintext; all three: the PEMs', () => {
    expect(readGrpcTls({})).toBeUndefined();
    expect(gateway.cert.toString()).toContain('BEGIN CERTIFICATE');
  });

  test('each problem names its setting', () => {
    expect(configError({ GRPC_TLS_CA_FILE: at('grid-ca.crt') })).toMatch(
      /^configuration error: GRPC_TLS_CERT_FILE is required with GRPC_TLS_CA_FILE/,
    );
    expect(configError({ ...settings('gateway'), GRPC_TLS_KEY_FILE: undefined })).toMatch(
      /^configuration error: GRPC_TLS_KEY_FILE is required/,
    );
    expect(configError({ ...settings('gateway'), GRPC_TLS_CA_FILE: at('missing.crt') })).toMatch(
      /^configuration error: GRPC_TLS_CA_FILE cannot be read/,
    );
    expect(configError({ ...settings('gateway'), GRPC_TLS_CERT_FILE: at('gateway.key') })).toMatch(
      /^configuration error: GRPC_TLS_CERT_FILE holds no PEM certificate/,
    );
    expect(configError({ ...settings('gateway'), GRPC_TLS_KEY_FILE: at('accounts.key') })).toMatch(
      /^configuration error: GRPC_TLS_KEY_FILE is not the private key of the certificate/,
    );
    expect(configError({ ...settings('stranger'), GRPC_TLS_CA_FILE: at('grid-ca.crt') })).toMatch(
      /^configuration error: GRPC_TLS_CERT_FILE is not signed by the CA/,
    );
  });
});

describe('a server with mutual TLS', () => {
  test('answers a component whose certificate the CA signed, calls and their internal token included', async () => {
    const probe = createHealthProbe(server.address, gateway);
    try {
      expect(await probe.status('', 5000)).toBe('serving');
    } finally {
      probe.close();
    }
    const client = createServiceClient(HealthService, server.address, {
      internalToken: 'token',
      tls: gateway,
    }) as unknown as { Check(r: object, ctx: object): Promise<{ status: unknown }>; close(): void };
    try {
      expect(await client.Check({ service: '' }, {})).toMatchObject({ status: 'SERVING' });
    } finally {
      client.close();
    }
  });

  test('refuses a plaintext client, a TLS client with no certificate, a certificate another CA signed', async () => {
    const stranger = { ca: gateway.ca, cert: readFileSync(at('stranger.crt')), key: readFileSync(at('stranger.key')) };
    const refused = [createHealthProbe(server.address, null), createHealthProbe(server.address, stranger)];
    try {
      for (const probe of refused) expect(await probe.status('', 3000)).toBe('unreachable');
    } finally {
      refused.forEach((p) => p.close());
    }
    // Server verified, but no client certificate offered: the handshake is refused.
    const { Client } = await import('@grpc/grpc-js');
    const anonymous = new Client(server.address, credentials.createSsl(gateway.ca));
    try {
      const outcome = await new Promise<string>((resolve) =>
        anonymous.makeUnaryRequest('/grpc.health.v1.Health/Check', () => Buffer.alloc(0), (b: Buffer) => b, {}, {
          deadline: Date.now() + 3000,
        }, (err) => resolve(err ? 'refused' : 'answered'))
      );
      expect(outcome).toBe('refused');
    } finally {
      anonymous.close();
    }
  });
});
