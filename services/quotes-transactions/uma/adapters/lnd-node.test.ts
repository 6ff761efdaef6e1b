import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { secp256k1 } from '@noble/curves/secp256k1';
import { createSignedRequest, createUnsignedRequest } from 'invoices';
import { createLndNode, readLndSettings } from './lnd-node';

/**
 * The LND adapter (the `lightning` library) against a small fake LND gRPC server built from the
 * `lightning.proto` and `router.proto` that library ships: lnrpc.Lightning AddInvoice and
 * LookupInvoice, routerrpc.Router SendPaymentV2, over TLS with the node's own self-signed
 * certificate, refusing calls without the node's macaroon. Invoices are real BOLT-11 requests.
 */
declare module 'invoices' {
  export function createUnsignedRequest(input: {
    network: string;
    id: string;
    mtokens: string;
    description: string;
    expires_at: string;
    payment: string;
  }): { hash: string; hrp: string; tags: number[] };
  export function createSignedRequest(input: {
    destination: string;
    hrp: string;
    signature: string;
    tags: number[];
  }): { request: string };
}

const MACAROON = randomBytes(32).toString('hex');
const NODE_KEY = secp256k1.utils.randomPrivateKey();
const NODE_PUBLIC_KEY = Buffer.from(secp256k1.getPublicKey(NODE_KEY, true)).toString('hex');
const PROTOS = join(dirname(require.resolve('lightning/package.json')), 'grpc', 'protos');

function makeCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-lnd-'));
  try {
    execFileSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=fake-lnd',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface FakeInvoice {
  preimage: Buffer;
  rHash: Buffer;
  paymentAddr: Buffer;
  request: string;
  memo: string;
  valueMsat: string;
  expiry: string;
  created: number;
  state: 'OPEN' | 'SETTLED' | 'CANCELED';
}

const tls = makeCertificate();
const invoices = new Map<string, FakeInvoice>();
const paid = new Set<string>();
const inFlight = new Set<string>();
const unroutable = new Set<string>();
const paymentRequests: Record<string, any>[] = [];
let server: grpc.Server;
let socket: string;

function bolt11(id: string, mtokens: string, description: string, expirySeconds: number): string {
  const unsigned = createUnsignedRequest({
    network: 'regtest',
    id,
    mtokens,
    description,
    payment: randomBytes(32).toString('hex'),
    expires_at: new Date(Date.now() + expirySeconds * 1_000).toISOString(),
  });
  const signature = secp256k1.sign(unsigned.hash, NODE_KEY, { lowS: true }).toCompactHex();
  const { hrp, tags } = unsigned;
  return createSignedRequest({ destination: NODE_PUBLIC_KEY, hrp, signature, tags }).request;
}

const failure = (code: grpc.status, details: string): grpc.ServiceError =>
  Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });

type Call = grpc.ServerUnaryCall<any, any> | grpc.ServerWritableStream<any, any>;
function authorized(call: Call): grpc.ServiceError | null {
  if (call.metadata.get('macaroon')[0] === MACAROON) return null;
  return failure(grpc.status.UNKNOWN, 'verification failed: signature mismatch after caveat verification');
}

const lightningService: grpc.UntypedServiceImplementation = {
  addInvoice(call: grpc.ServerUnaryCall<any, any>, done: grpc.sendUnaryData<any>) {
    const denied = authorized(call);
    if (denied) return done(denied);
    const preimage = randomBytes(32);
    const rHash = createHash('sha256').update(preimage).digest();
    const { value_msat: valueMsat, memo, expiry } = call.request;
    const request = bolt11(rHash.toString('hex'), valueMsat, memo, Number(expiry));
    const invoice: FakeInvoice = {
      preimage,
      rHash,
      paymentAddr: randomBytes(32),
      request,
      memo,
      valueMsat,
      expiry,
      created: Math.floor(Date.now() / 1_000),
      state: 'OPEN',
    };
    invoices.set(rHash.toString('hex'), invoice);
    done(null, { r_hash: rHash, payment_request: request, add_index: '1', payment_addr: invoice.paymentAddr });
  },
  lookupInvoice(call: grpc.ServerUnaryCall<any, any>, done: grpc.sendUnaryData<any>) {
    const denied = authorized(call);
    if (denied) return done(denied);
    const invoice = invoices.get(Buffer.from(call.request.r_hash).toString('hex'));
    if (!invoice) return done(failure(grpc.status.NOT_FOUND, 'there are no existing invoices'));
    done(null, {
      memo: invoice.memo,
      r_preimage: invoice.preimage,
      r_hash: invoice.rHash,
      value: String(BigInt(invoice.valueMsat) / 1000n),
      value_msat: invoice.valueMsat,
      settled: invoice.state === 'SETTLED',
      creation_date: String(invoice.created),
      settle_date: invoice.state === 'SETTLED' ? String(invoice.created + 1) : '0',
      payment_request: invoice.request,
      expiry: invoice.expiry,
      cltv_expiry: '80',
      add_index: '1',
      state: invoice.state,
      htlcs: [],
      features: {},
      payment_addr: invoice.paymentAddr,
    });
  },
};

function succeededPayment(hash: string, request: Record<string, any>, valueMsat: string) {
  const now = `${Date.now()}000000`;
  const hop = {
    chan_id: '123456789012345678',
    chan_capacity: '1000000',
    amt_to_forward_msat: valueMsat,
    fee_msat: '0',
    expiry: 200,
    pub_key: `02${'11'.repeat(32)}`,
    tlv_payload: true,
    mpp_record: { payment_addr: randomBytes(32), total_amt_msat: valueMsat },
  };
  return {
    payment_hash: hash,
    value_sat: String(BigInt(valueMsat) / 1000n),
    value_msat: valueMsat,
    creation_time_ns: now,
    fee_sat: '0',
    fee_msat: '0',
    payment_preimage: randomBytes(32).toString('hex'),
    payment_request: request.payment_request,
    status: 'SUCCEEDED',
    failure_reason: 'FAILURE_REASON_NONE',
    payment_index: '1',
    htlcs: [{
      attempt_id: '1',
      status: 'SUCCEEDED',
      attempt_time_ns: now,
      resolve_time_ns: now,
      route: { total_time_lock: 200, total_fees_msat: '0', total_amt_msat: valueMsat, hops: [hop] },
    }],
  };
}

const routerService: grpc.UntypedServiceImplementation = {
  sendPaymentV2(call: grpc.ServerWritableStream<any, any>) {
    const denied = authorized(call);
    if (denied) return void call.emit('error', denied);
    paymentRequests.push(call.request);
    const id = requestHashes.get(call.request.payment_request)!;
    const refuse = (details: string) => void call.emit('error', failure(grpc.status.ALREADY_EXISTS, details));
    if (inFlight.has(id)) return refuse('payment is in transition');
    if (paid.has(id)) return refuse('invoice is already paid');
    if (unroutable.has(id)) {
      call.write({
        payment_hash: id,
        status: 'FAILED',
        failure_reason: 'FAILURE_REASON_NO_ROUTE',
        creation_time_ns: '1',
        htlcs: [],
      });
      return call.end();
    }
    paid.add(id);
    call.write(succeededPayment(id, call.request, requestAmounts.get(call.request.payment_request) ?? '1000'));
    call.end();
  },
};

/** Invoices of other nodes that our node is asked to pay: request → hash, amount. */
const requestHashes = new Map<string, string>();
const requestAmounts = new Map<string, string>();
function foreignInvoice(mtokens = '5000000'): { request: string; hash: string } {
  const hash = createHash('sha256').update(randomBytes(32)).digest('hex');
  const request = bolt11(hash, mtokens, 'Pay $alice', 600);
  requestHashes.set(request, hash);
  requestAmounts.set(request, mtokens);
  return { request, hash };
}

const loaderOptions = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTOS],
};

beforeAll(async () => {
  const lnrpc = grpc.loadPackageDefinition(loadSync('lightning.proto', loaderOptions)) as any;
  const routerrpc = grpc.loadPackageDefinition(loadSync('router.proto', loaderOptions)) as any;
  server = new grpc.Server();
  server.addService(lnrpc.lnrpc.Lightning.service, lightningService);
  server.addService(routerrpc.routerrpc.Router.service, routerService);
  const keyPair = { private_key: Buffer.from(tls.key), cert_chain: Buffer.from(tls.cert) };
  const credentials = grpc.ServerCredentials.createSsl(null, [keyPair]);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (err, bound) => (err ? reject(err) : resolve(bound)))
  );
  socket = `localhost:${port}`;
});
afterAll(() => new Promise<void>((resolve) => server.tryShutdown(() => resolve())));

describe('createLndNode', () => {
  const node = () => createLndNode({ socket, macaroonHex: MACAROON, tlsCert: tls.cert });

  it('creates a BOLT-11 invoice and tells when it is settled', async () => {
    const { invoice, paymentHash } = await node()
      .createInvoice({ amountMsats: 12_340_000, description: 'Pay $bob', expirySeconds: 600 });
    expect(invoice).toMatch(/^lnbcrt123400n1/);
    expect(invoices.get(paymentHash)).toMatchObject({ memo: 'Pay $bob', valueMsat: '12340000', expiry: '600' });
    expect(await node().invoiceState(paymentHash)).toBe('OPEN');
    invoices.get(paymentHash)!.state = 'SETTLED';
    expect(await node().invoiceState(paymentHash)).toBe('PAID');
    invoices.get(paymentHash)!.state = 'CANCELED';
    expect(await node().invoiceState(paymentHash)).toBe('CANCELED');
    expect(await node().invoiceState('0'.repeat(64))).toBe('CANCELED');
  });

  it('pays an invoice once within the fee limit: paid again it answers SUCCEEDED without paying twice', async () => {
    const { request, hash } = foreignInvoice();
    const first = await node().payInvoice({ invoice: request, maxFeeMsats: 1_000 });
    expect(first)
      .toEqual({ status: 'SUCCEEDED', paymentHash: hash, preimage: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(paymentRequests.at(-1)).toMatchObject({ payment_request: request, fee_limit_msat: '1000' });
    expect(await node().payInvoice({ invoice: request, maxFeeMsats: 1_000 }))
      .toEqual({ status: 'SUCCEEDED', paymentHash: hash });
    expect(paymentRequests.filter((p) => p.payment_request === request)).toHaveLength(2);
  });

  it('tells a payment still in flight, and one LND gave up on (no route)', async () => {
    const stuck = foreignInvoice();
    inFlight.add(stuck.hash);
    expect(await node().payInvoice({ invoice: stuck.request, maxFeeMsats: 1_000 }))
      .toEqual({ status: 'IN_FLIGHT', paymentHash: stuck.hash });
    const lost = foreignInvoice();
    unroutable.add(lost.hash);
    expect(await node().payInvoice({ invoice: lost.request, maxFeeMsats: 1_000 }))
      .toEqual({ status: 'FAILED', reason: 'PaymentPathfindingFailedToFindPossibleRoute' });
    expect(await node().payInvoice({ invoice: 'lnbc1garbage', maxFeeMsats: 1_000 }))
      .toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/^not a payable BOLT-11 invoice/) });
  });

  it('fails closed: a wrong macaroon, or a node presenting another certificate', async () => {
    const wrongMacaroon = createLndNode({ socket, macaroonHex: 'ab', tlsCert: tls.cert });
    await expect(wrongMacaroon.invoiceState('0'.repeat(64)))
      .rejects.toThrow(/LookupInvoice failed: .*verification failed/);
    await expect(wrongMacaroon.payInvoice({ invoice: foreignInvoice().request, maxFeeMsats: 1 }))
      .rejects.toThrow(/SendPaymentV2 failed: .*verification failed/);
    const otherCert = createLndNode({ socket, macaroonHex: MACAROON, tlsCert: makeCertificate().cert });
    const before = invoices.size;
    await expect(otherCert.createInvoice({ amountMsats: 1_000, description: 'x', expirySeconds: 60 }))
      .rejects.toThrow(/AddInvoice failed/);
    expect(invoices.size).toBe(before);
  });

  it('refuses to start without its settings', () => {
    expect(() => readLndSettings({})).toThrow('configuration error: LND_SOCKET is required with LIGHTNING_NODE=lnd');
    const valid = { LND_SOCKET: socket, LND_MACAROON_HEX: MACAROON, LND_TLS_CERT: tls.cert.replace(/\n/g, '\\n') };
    expect(readLndSettings(valid)).toEqual({ socket, macaroonHex: MACAROON, tlsCert: tls.cert });
    expect(() => readLndSettings({ ...valid, LND_SOCKET: 'https://lnd:8080' })).toThrow('LND_SOCKET must be host:port');
    expect(() => readLndSettings({ ...valid, LND_MACAROON_HEX: 'zz' })).toThrow('LND_MACAROON_HEX must be hex');
    expect(() => readLndSettings({ ...valid, LND_TLS_CERT: 'not a cert' }))
      .toThrow('LND_TLS_CERT must be a PEM certificate');
  });
});
