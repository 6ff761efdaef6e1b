import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLndRestNode, readLndSettings } from './lnd-rest-node';

/**
 * The LND adapter against a small fake of LND's REST API, written from LND's API documentation
 * (lnrpc AddInvoice, LookupInvoice, SendPaymentSync and their REST mappings): TLS with the node's
 * own certificate, the macaroon in `Grpc-Metadata-macaroon`, bytes fields base64 in JSON.
 */
const MACAROON = randomBytes(32).toString('hex');

interface FakeInvoice { rHash: Buffer; valueMsat: string; state: 'OPEN' | 'SETTLED' | 'CANCELED' }

function makeCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-lnd-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2', '-subj', '/CN=fake-lnd',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: ['ignore', 'ignore', 'pipe'] });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tls = makeCertificate();
const invoices = new Map<string, FakeInvoice>();
const paid = new Set<string>();
const unroutable = new Set<string>();
let server: Server;
let url: string;

function fakeLnd(method: string, path: string, body: Record<string, any>): [number, unknown] {
  if (method === 'POST' && path === '/v1/invoices') {
    const rHash = createHash('sha256').update(randomBytes(32)).digest();
    invoices.set(rHash.toString('hex'), { rHash, valueMsat: body.value_msat, state: 'OPEN' });
    return [200, { r_hash: rHash.toString('base64'), payment_request: `lnbcrt${body.value_msat}n1fake${rHash.toString('hex')}`, add_index: '1' }];
  }
  const lookup = /^\/v1\/invoice\/([0-9a-f]{64})$/.exec(path);
  if (method === 'GET' && lookup) {
    const invoice = invoices.get(lookup[1]);
    return invoice ? [200, { r_hash: invoice.rHash.toString('base64'), value_msat: invoice.valueMsat, state: invoice.state }] : [404, { code: 5, message: 'unable to locate invoice' }];
  }
  if (method === 'POST' && path === '/v1/channels/transactions') {
    const hash = String(body.payment_request).slice(-64);
    const paymentHash = Buffer.from(hash, 'hex').toString('base64');
    if (unroutable.has(hash)) return [200, { payment_error: 'unable to find a path to destination', payment_hash: paymentHash }];
    if (paid.has(hash)) return [200, { payment_error: 'invoice is already paid', payment_hash: paymentHash }];
    paid.add(hash);
    return [200, { payment_error: '', payment_preimage: randomBytes(32).toString('base64'), payment_hash: paymentHash }];
  }
  return [404, { code: 12, message: 'Not Found' }];
}

beforeAll(async () => {
  server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.headers['grpc-metadata-macaroon'] !== MACAROON) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":2,"message":"verification failed: signature mismatch after caveat verification"}');
      const [status, body] = fakeLnd(req.method!, req.url!, chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {});
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createLndRestNode', () => {
  const node = () => createLndRestNode({ url, macaroonHex: MACAROON, tlsCert: tls.cert });

  it('creates an invoice and tells when it is settled', async () => {
    const { invoice, paymentHash } = await node().createInvoice({ amountMsats: 12_340_000, description: 'Pay $bob', expirySeconds: 600 });
    expect(invoice).toBe(`lnbcrt12340000n1fake${paymentHash}`);
    expect(await node().invoiceState(paymentHash)).toBe('OPEN');
    invoices.get(paymentHash)!.state = 'SETTLED';
    expect(await node().invoiceState(paymentHash)).toBe('PAID');
    expect(await node().invoiceState('0'.repeat(64))).toBe('CANCELED');
  });

  it('pays an invoice once: paid again it answers SUCCEEDED without paying twice; an unroutable one FAILED', async () => {
    const hash = randomBytes(32).toString('hex');
    const first = await node().payInvoice({ invoice: `lnbcrt1n1fake${hash}`, maxFeeMsats: 1_000 });
    expect(first).toEqual({ status: 'SUCCEEDED', paymentHash: hash, preimage: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await node().payInvoice({ invoice: `lnbcrt1n1fake${hash}`, maxFeeMsats: 1_000 })).toEqual({ status: 'SUCCEEDED', paymentHash: hash });
    const stuck = randomBytes(32).toString('hex');
    unroutable.add(stuck);
    expect(await node().payInvoice({ invoice: `lnbcrt1n1fake${stuck}`, maxFeeMsats: 1_000 })).toEqual({ status: 'FAILED', reason: 'unable to find a path to destination' });
  });

  it('fails closed: a wrong macaroon, or a node presenting another certificate', async () => {
    await expect(createLndRestNode({ url, macaroonHex: 'ab', tlsCert: tls.cert }).invoiceState('0'.repeat(64))).rejects.toThrow(/LookupInvoice answered 500: verification failed/);
    await expect(createLndRestNode({ url, macaroonHex: MACAROON, tlsCert: makeCertificate().cert }).invoiceState('0'.repeat(64))).rejects.toThrow(/self[- ]signed|certificate/i);
  });

  it('refuses to start without its settings', () => {
    expect(() => readLndSettings({})).toThrow('configuration error: LND_REST_URL is required with LIGHTNING_NODE=lnd');
    expect(() => readLndSettings({ LND_REST_URL: url, LND_MACAROON_HEX: 'zz', LND_TLS_CERT: tls.cert })).toThrow('LND_MACAROON_HEX must be hex');
  });
});
