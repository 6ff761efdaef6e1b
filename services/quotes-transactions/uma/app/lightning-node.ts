/** An invoice's state as the node knows it. */
export type InvoiceState = 'OPEN' | 'PAID' | 'CANCELED';

export interface CreatedInvoice {
  /** The encoded payment request (BOLT-11 on a real node). */
  invoice: string;
  /** Hex payment hash: the invoice's identity. */
  paymentHash: string;
}

export type PaymentAttempt =
  | { status: 'SUCCEEDED'; paymentHash: string; preimage?: string }
  | { status: 'IN_FLIGHT'; paymentHash: string }
  | { status: 'FAILED'; reason: string };

/**
 * The Lightning node that settles UMA payments (the settlement leg): it makes invoices for what our
 * customers receive, tells when they are paid, and pays the invoices of other VASPs. `payInvoice`
 * is idempotent: the same invoice is paid once whatever the retries.
 */
export interface LightningNode {
  readonly name: 'sandbox' | 'lnd';
  createInvoice(input: { amountMsats: number; description: string; expirySeconds: number }): Promise<CreatedInvoice>;
  invoiceState(paymentHash: string): Promise<InvoiceState>;
  payInvoice(input: { invoice: string; maxFeeMsats: number }): Promise<PaymentAttempt>;
  /**
   * The sandbox's stand-in for the network: the sender's signed post-transaction callback is its
   * proof that an invoice was paid. Absent on a real node, which learns of payments itself.
   */
  acceptPaymentProof?(paymentHash: string): Promise<void>;
}
