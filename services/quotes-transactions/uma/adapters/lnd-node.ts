import { parsePaymentRequest } from 'invoices';
import { authenticatedLndGrpc, createInvoice, getInvoice, payViaPaymentRequest } from 'lightning';
import { ConfigError, readConfig, setting } from '../../../../lib/config';
import type { InvoiceState, LightningNode, PaymentAttempt } from '../app/lightning-node';

/** Where and how to reach the LND node (its gRPC API): read only when LIGHTNING_NODE=lnd. */
export function readLndSettings(env: NodeJS.ProcessEnv) {
  const config = readConfig({
    /** LND's gRPC address, `host:10009` (LIGHTNING_NODE=lnd) */
    LND_SOCKET: setting.optionalString(),
    /** The macaroon LND accepts for invoices and payments (invoice + offchain permissions), hex (LIGHTNING_NODE=lnd) */
    LND_MACAROON_HEX: setting.optionalString(),
    /** LND's TLS certificate (PEM; `\n` escapes allowed), the only one trusted for its gRPC address
     * (LIGHTNING_NODE=lnd) */
    LND_TLS_CERT: setting.optionalString(),
  }, env);
  for (const name of ['LND_SOCKET', 'LND_MACAROON_HEX', 'LND_TLS_CERT'] as const) {
    if (!config[name]) {
      throw new ConfigError(name, 'is required with LIGHTNING_NODE=lnd (the Lightning node that settles UMA payments)');
    }
  }
  if (!/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(config.LND_SOCKET!)) {
    throw new ConfigError('LND_SOCKET', `must be host:port, got "${config.LND_SOCKET}"`);
  }
  if (!/^([0-9a-fA-F]{2})+$/.test(config.LND_MACAROON_HEX!)) throw new ConfigError('LND_MACAROON_HEX', 'must be hex');
  const tlsCert = config.LND_TLS_CERT!.replace(/\\n/g, '\n');
  if (!tlsCert.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError('LND_TLS_CERT', 'must be a PEM certificate');
  }
  return { socket: config.LND_SOCKET!, macaroonHex: config.LND_MACAROON_HEX!, tlsCert };
}

/** How the `lightning` library rejects: `[httpLikeCode, 'ErrorName', {err}]`, err the gRPC status error. */
type LibraryError = [number, string, { err?: { code?: number; details?: string } }?];
const GRPC_NOT_FOUND = 5;

function grpcCause(error: unknown): { code?: number; details: string } | undefined {
  if (!Array.isArray(error)) return undefined;
  const err = (error as LibraryError)[2]?.err;
  return err ? { code: err.code, details: String(err.details ?? '') } : undefined;
}

function asError(what: string, error: unknown): Error {
  if (error instanceof Error) return error;
  if (!Array.isArray(error)) return new Error(`LND ${what} failed`);
  const [, name] = error as LibraryError;
  const cause = grpcCause(error);
  return new Error(`LND ${what} failed: ${name}${cause ? ` (${cause.details})` : ''}`);
}

/** Payment failures the library reports once LND has given up on the payment for good. */
const FINAL_FAILURES = new Set([
  'PaymentExecutionCanceled',
  'InsufficientBalanceToAttemptPayment',
  'PaymentRejectedByDestination',
  'PaymentAttemptsTimedOut',
  'PaymentPathfindingFailedToFindPossibleRoute',
  'FailedToFindPayableRouteToDestination',
]);

/**
 * An LND node through the `lightning` library (LND's gRPC API with its own `lightning.proto` and
 * `router.proto`): AddInvoice and LookupInvoice for what our customers receive, the router's
 * SendPaymentV2 for what they send. Every call carries the macaroon and trusts only the node's own
 * certificate. Paying an invoice already paid answers SUCCEEDED (LND pays an invoice once: "invoice
 * is already paid"), one still in flight IN_FLIGHT ("payment is in transition").
 */
export function createLndNode(options: { socket: string; macaroonHex: string; tlsCert: string }): LightningNode {
  const { lnd } = authenticatedLndGrpc({
    cert: Buffer.from(options.tlsCert).toString('base64'),
    macaroon: options.macaroonHex,
    socket: options.socket,
  });

  async function payInvoice(input: { invoice: string; maxFeeMsats: number }): Promise<PaymentAttempt> {
    const { invoice, maxFeeMsats } = input;
    let paymentHash: string;
    try {
      paymentHash = parsePaymentRequest({ request: invoice }).id;
    } catch (err) {
      return { status: 'FAILED', reason: `not a payable BOLT-11 invoice: ${(err as Error).message}`.slice(0, 300) };
    }
    try {
      const paid = await payViaPaymentRequest({ lnd, request: invoice, max_fee_mtokens: String(maxFeeMsats) });
      return { status: 'SUCCEEDED', paymentHash, preimage: paid.secret };
    } catch (error) {
      const details = grpcCause(error)?.details ?? '';
      if (/already paid/i.test(details)) return { status: 'SUCCEEDED', paymentHash };
      if (/in transition|in flight/i.test(details)) return { status: 'IN_FLIGHT', paymentHash };
      const name = Array.isArray(error) ? String(error[1]) : '';
      if (FINAL_FAILURES.has(name)) return { status: 'FAILED', reason: name };
      throw asError('SendPaymentV2', error);
    }
  }

  return {
    name: 'lnd',
    async createInvoice({ amountMsats, description, expirySeconds }) {
      try {
        const expiresAt = new Date(Date.now() + expirySeconds * 1_000).toISOString();
        const created = await createInvoice({ lnd, mtokens: String(amountMsats), description, expires_at: expiresAt });
        return { invoice: created.request, paymentHash: created.id };
      } catch (error) {
        throw asError('AddInvoice', error);
      }
    },
    async invoiceState(paymentHash): Promise<InvoiceState> {
      try {
        const invoice = await getInvoice({ lnd, id: paymentHash });
        return invoice.is_confirmed ? 'PAID' : invoice.is_canceled ? 'CANCELED' : 'OPEN';
      } catch (error) {
        if (grpcCause(error)?.code === GRPC_NOT_FOUND) return 'CANCELED';
        throw asError('LookupInvoice', error);
      }
    },
    payInvoice,
  };
}
