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

export interface UmaRecords {
  saveIncoming(record: IncomingUmaRecord): Promise<void>;
  incoming(transactionId: string): Promise<IncomingUmaRecord | null>;
  ensureIndexes(): Promise<void>;
}
