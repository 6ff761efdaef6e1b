/** What we keep of an incoming UMA payment beside its transaction: the invoice that settles it and who pays it. */
export interface IncomingUmaRecord {
  transactionId: string;
  platformId: string;
  paymentHash: string;
  invoice: string;
  amountMsats: number;
  senderVaspDomain: string;
  senderUmaAddress: string;
  expiresAt: string;
}

/** What we keep of an outgoing UMA payment: the receiver's invoice, and whether it heard of the payment. */
export interface OutgoingUmaRecord {
  transactionId: string;
  platformId: string;
  invoice: string;
  amountMsats: number;
  receiverDomain: string;
  payerIdentifier: string;
  postTransactionCallback?: string;
  /** After this, an unpaid (or, in the sandbox, unreported) payment is given up and refunded. */
  giveUpAt: string;
  reportedAt?: string;
}

export interface UmaRecords {
  saveIncoming(record: IncomingUmaRecord): Promise<void>;
  incoming(transactionId: string): Promise<IncomingUmaRecord | null>;
  saveOutgoing(record: OutgoingUmaRecord): Promise<void>;
  outgoing(transactionId: string): Promise<OutgoingUmaRecord | null>;
  markReported(transactionId: string, at: string): Promise<void>;
  ensureIndexes(): Promise<void>;
}
