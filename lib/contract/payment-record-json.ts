import { Quote, Transaction, type PaymentInstruction } from '../../gen/quotes_transactions/v1/payment_records';
import { scaChallengeJson } from './sca-challenge';

/**
 * The REST JSON of the typed payment records. The messages are named member for member as the
 * REST records, so the JSON is the decoded message minus what proto3 cannot say: an empty list
 * that REST omits, and the members REST sends as an explicit null.
 */
function instructionJson(i: PaymentInstruction) {
  const info = i.accountOrWalletInfo!;
  return {
    ...i,
    accountOrWalletInfo: { ...info, paymentRails: info.paymentRails.length ? info.paymentRails : undefined },
  };
}

/**
 * `record` may come straight from the domain (webhooks) rather than through gRPC (responses): the
 * typed message's own `fromPartial` drops the nulls a stored document can hold, as the wire does.
 */
export function transactionJson(record: Transaction) {
  const t = Transaction.fromPartial(record);
  const outgoing = t.type === 'OUTGOING';
  return {
    ...t,
    paymentInstructions: outgoing ? t.paymentInstructions.map(instructionJson) : undefined,
    // The reference sends both as null while the service chooses the rail.
    paymentRail: outgoing ? t.paymentRail ?? null : undefined,
    railSelectionMode: outgoing ? t.railSelectionMode ?? null : undefined,
  };
}

export function quoteJson(record: Quote) {
  const q = Quote.fromPartial(record);
  return {
    ...q,
    paymentInstructions: q.paymentInstructions.length ? q.paymentInstructions.map(instructionJson) : undefined,
    scaChallenge: q.scaChallenge ? scaChallengeJson(q.scaChallenge) : undefined,
  };
}
