import type { FailureReason } from './transaction-states';

/**
 * How a sandbox payment ends, decided when it is created from documented magic values.
 *
 * Outgoing payments and transfers, by the last three digits of the amount asked for
 * (`lockedCurrencyAmount`, or `amount` of a transfer):
 *   …901 ACCOUNT_INVALID · …902 ACCOUNT_CANNOT_RECEIVE · …903 LIMIT_EXCEEDED ·
 *   …904 PAYOUT_RETURNED · …905 QUOTE_EXECUTION_FAILED (each fails after the debit, which is
 *   refunded automatically) · …906 compliance review, then settles · …907 compliance review,
 *   then COMPLIANCE_REJECTED (refunded).
 * Incoming UMA payments (/sandbox/uma/receive), by the sender address's user part:
 *   $refund… fails and is refunded to the sender · $refundfail… fails, its first refund attempt
 *   fails and the worker's retry completes it ·
 *   $review… compliance review, then credited · $reject… COMPLIANCE_REJECTED and refunded ·
 *   $approval… waits for POST /transactions/{id}/approve or /reject · $receiverinfo… asks the
 *   platform about the recipient in its approval webhook (credited once answered) · anything else is credited;
 *   the amount suffixes above apply to incoming payments too.
 */
export type SandboxOutcome =
  | { kind: 'SETTLES' }
  /** `failingRefundAttempts`: how many refund attempts fail before one completes (default 0). */
  | { kind: 'FAILS'; reason: FailureReason; failingRefundAttempts?: number }
  | { kind: 'REVIEWED'; passes: boolean }
  | { kind: 'AWAITS_APPROVAL' };

const BY_AMOUNT_SUFFIX: Readonly<Record<number, SandboxOutcome>> = {
  901: { kind: 'FAILS', reason: 'ACCOUNT_INVALID' },
  902: { kind: 'FAILS', reason: 'ACCOUNT_CANNOT_RECEIVE' },
  903: { kind: 'FAILS', reason: 'LIMIT_EXCEEDED' },
  904: { kind: 'FAILS', reason: 'PAYOUT_RETURNED' },
  905: { kind: 'FAILS', reason: 'QUOTE_EXECUTION_FAILED' },
  906: { kind: 'REVIEWED', passes: true },
  907: { kind: 'REVIEWED', passes: false },
};

export const SETTLES: SandboxOutcome = { kind: 'SETTLES' };

export function outcomeForAmount(amount: number): SandboxOutcome {
  return BY_AMOUNT_SUFFIX[amount % 1000] ?? SETTLES;
}

const BY_SENDER: ReadonlyArray<[RegExp, SandboxOutcome]> = [
  [/^\$refundfail/i, { kind: 'FAILS', reason: 'COMPLIANCE_REJECTED', failingRefundAttempts: 1 }],
  [/^\$refund/i, { kind: 'FAILS', reason: 'ACCOUNT_CANNOT_RECEIVE' }],
  [/^\$review/i, { kind: 'REVIEWED', passes: true }],
  [/^\$reject/i, { kind: 'REVIEWED', passes: false }],
  [/^\$approval/i, { kind: 'AWAITS_APPROVAL' }],
];

export function outcomeForIncoming(senderUmaAddress: string, amount: number): SandboxOutcome {
  return BY_SENDER.find(([pattern]) => pattern.test(senderUmaAddress))?.[1] ?? outcomeForAmount(amount);
}

/**
 * `$receiverinfo…` senders ask about the recipient (as the reference's example does) in the
 * approval webhook: NATIONALITY mandatory, POSTAL_ADDRESS optional. Only when the platform is asked.
 */
export const SANDBOX_REQUESTED_RECEIVER_FIELDS = [{ name: 'NATIONALITY', mandatory: true }, {
  name: 'POSTAL_ADDRESS',
  mandatory: false,
}];
export const asksReceiverInfo = (senderUmaAddress: string): boolean => /^\$receiverinfo/i.test(senderUmaAddress);
