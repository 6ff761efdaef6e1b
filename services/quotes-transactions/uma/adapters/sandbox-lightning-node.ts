import { createHash, randomBytes } from 'node:crypto';
import { DuplicateKeyError, type DocumentStore } from '../../../../lib/store/document-store';
import type { InvoiceState, LightningNode } from '../app/lightning-node';

type InvoiceDoc = {
  _id: string;
  amountMsats: number;
  state: InvoiceState;
  expiresAt: string;
  description: string;
  paidAt?: string;
};
type PaymentDoc = { _id: string; invoice: string; paidAt: string };

export const SANDBOX_INVOICES_COLLECTION = 'uma_sandbox_invoices';
export const SANDBOX_LN_PAYMENTS_COLLECTION = 'uma_sandbox_ln_payments';
const PREFIX = 'lnsandbox';

/** The sandbox invoice's form: `lnsandbox<msats>:<payment hash>` (no real Lightning network behind it). */
export const parseSandboxInvoice = (invoice: string) => {
  const m = /^lnsandbox(\d{1,15}):([0-9a-f]{64})$/.exec(invoice);
  return m ? { amountMsats: Number(m[1]), paymentHash: m[2] } : undefined;
};

/**
 * The embedded Lightning node of the sandbox: invoices and payments are records in the service's
 * store. Paying another VASP's invoice succeeds at once (there is no network); that VASP learns of
 * it from our signed post-transaction callback (acceptPaymentProof on its side).
 */
export function createSandboxLightningNode(store: DocumentStore, clock: () => Date): LightningNode {
  const invoices = store.collection<InvoiceDoc>(SANDBOX_INVOICES_COLLECTION);
  const payments = store.collection<PaymentDoc>(SANDBOX_LN_PAYMENTS_COLLECTION);
  return {
    name: 'sandbox',
    async createInvoice({ amountMsats, description, expirySeconds }) {
      const preimage = randomBytes(32);
      const paymentHash = createHash('sha256').update(preimage).digest('hex');
      const expiresAt = new Date(clock().getTime() + expirySeconds * 1000).toISOString();
      await invoices.insertOne({ _id: paymentHash, amountMsats, state: 'OPEN', expiresAt, description });
      return { invoice: `${PREFIX}${amountMsats}:${paymentHash}`, paymentHash };
    },
    async invoiceState(paymentHash) {
      const doc = await invoices.findOne({ _id: paymentHash });
      if (!doc) return 'CANCELED';
      if (doc.state === 'OPEN' && Date.parse(doc.expiresAt) <= clock().getTime()) return 'CANCELED';
      return doc.state;
    },
    async payInvoice({ invoice }) {
      const parsed = parseSandboxInvoice(invoice);
      if (!parsed) return { status: 'FAILED', reason: 'not a sandbox invoice' };
      try {
        await payments.insertOne({ _id: parsed.paymentHash, invoice, paidAt: clock().toISOString() });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      return { status: 'SUCCEEDED', paymentHash: parsed.paymentHash };
    },
    async acceptPaymentProof(paymentHash) {
      await invoices.updateOne({ _id: paymentHash, state: 'OPEN' }, {
        $set: { state: 'PAID', paidAt: clock().toISOString() },
      });
    },
  };
}
