import { request } from 'node:https';
import { ConfigError, readConfig, setting } from '../../../../lib/config';
import type { InvoiceState, LightningNode, PaymentAttempt } from '../app/lightning-node';

/** Where and how to reach the LND node (its REST API): read only when LIGHTNING_NODE=lnd. */
export function readLndSettings(env: NodeJS.ProcessEnv) {
  const config = readConfig({
    /** LND's REST address, `https://host:8080` (LIGHTNING_NODE=lnd) */
    LND_REST_URL: setting.optionalUrl('https:'),
    /** The macaroon LND accepts for invoices and payments (invoice + offchain permissions), hex (LIGHTNING_NODE=lnd) */
    LND_MACAROON_HEX: setting.optionalString(),
    /** LND's TLS certificate (PEM; `\n` escapes allowed), trusted for its REST address (LIGHTNING_NODE=lnd) */
    LND_TLS_CERT: setting.optionalString(),
  }, env);
  for (const name of ['LND_REST_URL', 'LND_MACAROON_HEX', 'LND_TLS_CERT'] as const) {
    if (!config[name]) throw new ConfigError(name, 'is required with LIGHTNING_NODE=lnd (the Lightning node that settles UMA payments)');
  }
  if (!/^[0-9a-fA-F]+$/.test(config.LND_MACAROON_HEX!)) throw new ConfigError('LND_MACAROON_HEX', 'must be hex');
  return { url: config.LND_REST_URL!, macaroonHex: config.LND_MACAROON_HEX!, tlsCert: config.LND_TLS_CERT!.replace(/\\n/g, '\n') };
}

type Json = Record<string, unknown>;

/**
 * An LND node through its REST API (lnrpc's HTTP annotations): AddInvoice (POST /v1/invoices),
 * LookupInvoice (GET /v1/invoice/{r_hash_str}), SendPaymentSync (POST /v1/channels/transactions).
 * Every call carries the macaroon and trusts only the node's own certificate. Paying an invoice
 * already paid answers SUCCEEDED (LND pays an invoice once), one still in flight IN_FLIGHT.
 */
export function createLndRestNode(options: { url: string; macaroonHex: string; tlsCert: string; timeoutMs?: number }): LightningNode {
  const base = new URL(options.url);

  function call(method: 'GET' | 'POST', path: string, body?: Json): Promise<{ status: number; json: Json }> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request({
        host: base.hostname, port: base.port || 443, path, method, ca: options.tlsCert, timeout: options.timeoutMs ?? 30_000,
        headers: { 'Grpc-Metadata-macaroon': options.macaroonHex, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Json });
          } catch (err) {
            reject(new Error(`LND answered ${res.statusCode} with no JSON`, { cause: err }));
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error('LND did not answer in time')));
      req.on('error', reject);
      req.end(payload);
    });
  }

  const hex = (base64: unknown) => Buffer.from(String(base64 ?? ''), 'base64').toString('hex');
  const failed = (what: string, answer: { status: number; json: Json }) => new Error(`LND ${what} answered ${answer.status}: ${String(answer.json.message ?? answer.json.error ?? '')}`);

  return {
    name: 'lnd',
    async createInvoice({ amountMsats, description, expirySeconds }) {
      const answer = await call('POST', '/v1/invoices', { value_msat: String(amountMsats), memo: description, expiry: String(expirySeconds) });
      if (answer.status !== 200 || typeof answer.json.payment_request !== 'string') throw failed('AddInvoice', answer);
      return { invoice: answer.json.payment_request, paymentHash: hex(answer.json.r_hash) };
    },
    async invoiceState(paymentHash): Promise<InvoiceState> {
      const answer = await call('GET', `/v1/invoice/${encodeURIComponent(paymentHash)}`);
      if (answer.status === 404) return 'CANCELED';
      if (answer.status !== 200) throw failed('LookupInvoice', answer);
      return answer.json.state === 'SETTLED' ? 'PAID' : answer.json.state === 'CANCELED' ? 'CANCELED' : 'OPEN';
    },
    async payInvoice({ invoice, maxFeeMsats }): Promise<PaymentAttempt> {
      const answer = await call('POST', '/v1/channels/transactions', { payment_request: invoice, fee_limit: { fixed_msat: String(maxFeeMsats) } });
      if (answer.status !== 200) throw failed('SendPaymentSync', answer);
      const error = String(answer.json.payment_error ?? '');
      const paymentHash = hex(answer.json.payment_hash);
      if (!error) return { status: 'SUCCEEDED', paymentHash, preimage: hex(answer.json.payment_preimage) };
      if (/already paid/i.test(error)) return { status: 'SUCCEEDED', paymentHash };
      if (/in transition|in flight/i.test(error)) return { status: 'IN_FLIGHT', paymentHash };
      return { status: 'FAILED', reason: error.slice(0, 300) };
    },
  };
}
