import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TlsOptions } from 'node:tls';

/**
 * A secured front door for librdkafka's mock cluster, whose listeners speak plaintext without
 * authentication (rdkafka_mock.h of librdkafka 2.0 configures neither). It terminates TLS (node:tls,
 * optionally requiring a client certificate), performs the broker's side of SASL (SaslHandshake v1 +
 * SaslAuthenticate: PLAIN per RFC 4616, SCRAM-SHA-256/512 per RFC 5802/7677) and only then relays
 * the client's Kafka requests to the mock broker. Broker addresses in Metadata and FindCoordinator
 * answers are rewritten to this proxy, so every connection a client makes comes through it; the
 * ApiVersions answer gains the two SASL APIs. Requests before authentication close the connection.
 */
export interface SecuredBrokerOptions {
  /** The mock broker, `host:port`. */
  upstream: string;
  tls?: TlsOptions;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

export interface SecuredBroker {
  brokers: string[];
  /** Connections whose SASL exchange succeeded / failed. */
  authenticated(): number;
  rejected(): number;
  stop(): Promise<void>;
}

const API = { metadata: 3, findCoordinator: 10, saslHandshake: 17, apiVersions: 18, saslAuthenticate: 36 } as const;
const SASL_AUTHENTICATION_FAILED = 58;
const UNSUPPORTED_SASL_MECHANISM = 33;

export async function startSecuredBroker(options: SecuredBrokerOptions): Promise<SecuredBroker> {
  const [upstreamHost, upstreamPort] = [
    options.upstream.slice(0, options.upstream.lastIndexOf(':')),
    Number(options.upstream.slice(options.upstream.lastIndexOf(':') + 1)),
  ];
  const counts = { authenticated: 0, rejected: 0 };
  const sockets = new Set<Socket>();
  let advertised = { host: 'localhost', port: 0 };
  const onClient = (client: Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const upstream = connect(upstreamPort, upstreamHost);
    relay({ client, upstream, options, advertised: () => advertised, counts, sockets });
  };
  const server: Server = options.tls ? createTlsServer(options.tls, onClient) : createTcpServer(onClient);
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  advertised = { host: 'localhost', port: (server.address() as AddressInfo).port };
  return {
    brokers: [`localhost:${advertised.port}`],
    authenticated: () => counts.authenticated,
    rejected: () => counts.rejected,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Splits a byte stream into Kafka frames (int32 size, then that many bytes). */
function frames(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
      const size = pending.readInt32BE(0);
      onFrame(pending.subarray(4, 4 + size));
      pending = pending.subarray(4 + size);
    }
  };
}

const framed = (body: Buffer) => Buffer.concat([int32(body.length), body]);
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const kString = (
  s: string | null,
) => (s === null ? int16(-1) : Buffer.concat([int16(Buffer.byteLength(s)), Buffer.from(s)]));
const kBytes = (b: Buffer) => Buffer.concat([int32(b.length), b]);

/** One client connection and its connection to the broker, with the proxy's shared counts and open sockets. */
interface Relay {
  client: Socket;
  upstream: Socket;
  options: SecuredBrokerOptions;
  advertised: () => { host: string; port: number };
  counts: { authenticated: number; rejected: number };
  sockets: Set<Socket>;
}

function relay({ client, upstream, options, advertised, counts, sockets }: Relay): void {
  sockets.add(upstream);
  upstream.on('close', () => {
    sockets.delete(upstream);
    client.destroy();
  });
  client.on('close', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  const inFlight = new Map<number, { apiKey: number; version: number }>();
  let authenticated = !options.sasl;
  let handshaken = false;
  const scram = options.sasl && options.sasl.mechanism !== 'plain' ? scramServer(options.sasl) : undefined;

  client.on(
    'data',
    frames((frame) => {
      const apiKey = frame.readInt16BE(0);
      const version = frame.readInt16BE(2);
      const correlationId = frame.readInt32BE(4);
      const clientIdLength = frame.readInt16BE(8);
      const body = frame.subarray(10 + Math.max(0, clientIdLength));
      const answer = (payload: Buffer) => client.write(framed(Buffer.concat([int32(correlationId), payload])));
      if (apiKey === API.saslHandshake && options.sasl) {
        const mechanism = body.subarray(2, 2 + body.readInt16BE(0)).toString();
        handshaken = mechanism.toLowerCase() === options.sasl.mechanism;
        answer(
          Buffer.concat([
            int16(handshaken ? 0 : UNSUPPORTED_SASL_MECHANISM),
            int32(1),
            kString(options.sasl.mechanism.toUpperCase()),
          ]),
        );
        return;
      }
      if (apiKey === API.saslAuthenticate && options.sasl && handshaken) {
        const token = body.subarray(4, 4 + body.readInt32BE(0));
        const step = options.sasl.mechanism === 'plain' ? plainStep(options.sasl, token) : scram!(token);
        const lifetime = version >= 1 ? Buffer.alloc(8) : Buffer.alloc(0);
        if (step.ok === false) {
          counts.rejected++;
          answer(
            Buffer.concat([
              int16(SASL_AUTHENTICATION_FAILED),
              kString('Authentication failed: invalid credentials'),
              kBytes(Buffer.alloc(0)),
              lifetime,
            ]),
          );
          client.end();
          return;
        }
        if (step.done) {
          authenticated = true;
          counts.authenticated++;
        }
        answer(Buffer.concat([int16(0), kString(null), kBytes(step.reply), lifetime]));
        return;
      }
      if (!authenticated && apiKey !== API.apiVersions) {
        client.destroy();
        return;
      }
      inFlight.set(correlationId, { apiKey, version });
      upstream.write(framed(frame));
    }),
  );

  upstream.on(
    'data',
    frames((frame) => {
      const correlationId = frame.readInt32BE(0);
      const request = inFlight.get(correlationId);
      inFlight.delete(correlationId);
      let body = frame.subarray(4);
      if (request?.apiKey === API.apiVersions && options.sasl) body = withSaslApis(body);
      if (request?.apiKey === API.metadata) body = rewriteMetadata(body, request.version, advertised());
      if (request?.apiKey === API.findCoordinator) body = rewriteCoordinator(body, request.version, advertised());
      client.write(framed(Buffer.concat([int32(correlationId), body])));
    }),
  );
}

/** ApiVersions v0–v2: error, [apiKey, min, max], (v1+) throttle. */
function withSaslApis(body: Buffer): Buffer {
  if (body.readInt16BE(0) !== 0) return body;
  const count = body.readInt32BE(2);
  const entries = body.subarray(6, 6 + count * 6);
  const rest = body.subarray(6 + count * 6);
  const extra = Buffer.concat([
    int16(API.saslHandshake),
    int16(0),
    int16(1),
    int16(API.saslAuthenticate),
    int16(0),
    int16(1),
  ]);
  return Buffer.concat([int16(0), int32(count + 2), entries, extra, rest]);
}

/** Metadata v0–v8: (v3+) throttle, brokers [node, host, port, (v1+) rack], rest unchanged. */
function rewriteMetadata(body: Buffer, version: number, to: { host: string; port: number }): Buffer {
  let at = version >= 3 ? 4 : 0;
  const head = body.subarray(0, at);
  const count = body.readInt32BE(at);
  at += 4;
  const brokers: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const node = body.readInt32BE(at);
    at += 4;
    at += 2 + body.readInt16BE(at) + 4; // host, port
    let rack: Buffer = Buffer.alloc(0);
    if (version >= 1) {
      const length = body.readInt16BE(at);
      rack = body.subarray(at, at + 2 + Math.max(0, length));
      at += 2 + Math.max(0, length);
    }
    brokers.push(int32(node), kString(to.host), int32(to.port), rack);
  }
  return Buffer.concat([head, int32(count), ...brokers, body.subarray(at)]);
}

/** FindCoordinator v0: error, node, host, port; v1–v2: throttle, error, message, node, host, port. */
function rewriteCoordinator(body: Buffer, version: number, to: { host: string; port: number }): Buffer {
  let at = version >= 1 ? 6 : 2;
  if (version >= 1) at += 2 + Math.max(0, body.readInt16BE(at));
  const head = body.subarray(0, at + 4); // through node id
  at += 4;
  at += 2 + body.readInt16BE(at) + 4;
  return Buffer.concat([head, kString(to.host), int32(to.port), body.subarray(at)]);
}

type Step = { ok: true; done: boolean; reply: Buffer } | { ok: false };

const equal = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** PLAIN (RFC 4616): authzid NUL authcid NUL password. */
function plainStep(expected: { username: string; password: string }, token: Buffer): Step {
  const [, user, password] = token.toString().split('\0');
  const ok = user !== undefined && password !== undefined && equal(Buffer.from(user), Buffer.from(expected.username))
    && equal(Buffer.from(password), Buffer.from(expected.password));
  return ok ? { ok: true, done: true, reply: Buffer.alloc(0) } : { ok: false };
}

/** The server's side of SCRAM (RFC 5802), for one connection: client-first, then client-final. */
function scramServer(expected: { mechanism: string; username: string; password: string }): (token: Buffer) => Step {
  const hash = expected.mechanism === 'scram-sha-512' ? 'sha512' : 'sha256';
  const size = hash === 'sha512' ? 64 : 32;
  const salt = randomBytes(16);
  const iterations = 4096;
  const salted = pbkdf2Sync(expected.password, salt, iterations, size, hash);
  const clientKey = createHmac(hash, salted).update('Client Key').digest();
  const storedKey = createHash(hash).update(clientKey).digest();
  const serverKey = createHmac(hash, salted).update('Server Key').digest();
  let state: { clientFirstBare: string; serverFirst: string; nonce: string } | undefined;
  const attrs = (text: string) => Object.fromEntries(text.split(',').map((p) => [p[0], p.slice(2)]));
  return (token) => {
    const text = token.toString();
    if (!state) {
      const clientFirstBare = text.replace(/^[^,]*,[^,]*,/, '');
      const { n, r } = attrs(clientFirstBare);
      if (n !== expected.username || !r) return { ok: false };
      const nonce = r + randomBytes(18).toString('base64');
      const serverFirst = `r=${nonce},s=${salt.toString('base64')},i=${iterations}`;
      state = { clientFirstBare, serverFirst, nonce };
      return { ok: true, done: false, reply: Buffer.from(serverFirst) };
    }
    const withoutProof = text.replace(/,p=[^,]*$/, '');
    const { r, p } = attrs(text);
    if (r !== state.nonce || !p) return { ok: false };
    const authMessage = `${state.clientFirstBare},${state.serverFirst},${withoutProof}`;
    const signature = createHmac(hash, storedKey).update(authMessage).digest();
    const proof = Buffer.from(p, 'base64');
    if (proof.length !== size) return { ok: false };
    const recoveredKey = Buffer.from(proof.map((byte, i) => byte ^ signature[i]));
    if (!equal(createHash(hash).update(recoveredKey).digest(), storedKey)) return { ok: false };
    const serverSignature = createHmac(hash, serverKey).update(authMessage).digest('base64');
    return { ok: true, done: true, reply: Buffer.from(`v=${serverSignature}`) };
  };
}
