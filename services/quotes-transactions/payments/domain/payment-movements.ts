import { ledgerStep, systemAccount, type LedgerStep, type Posting } from '../../ledger/domain/ledger-postings';
import type { Payment } from './payment';

/**
 * The balanced postings of each movement of a payment. Money an outgoing payment takes is held in
 * transit until it settles (fees, FX, payout) or is refunded; an incoming payment's money is held
 * in transit from arrival until it is credited or refunded.
 */
export type MovementName = 'fund' | 'debit' | 'settle' | 'refund' | 'receive' | 'credit';

const sys = (p: Payment, kind: Parameters<typeof systemAccount>[0], currency: string) =>
  systemAccount(kind, currency, p.platformId);

function post(account: string, currency: string, amount: number): Posting {
  return { account, currency, amount };
}

/** The internal account that holds the money at either end, or settlement with the outside world. */
function sourceAccount(p: Payment): string {
  return p.source.sourceType === 'ACCOUNT' && p.source.accountKind === 'INTERNAL'
    ? p.source.accountId
    : sys(p, 'settlement', p.sent.currency.code);
}

function destinationAccount(p: Payment): string {
  return p.destination.destinationType === 'ACCOUNT' && p.destination.accountKind === 'INTERNAL'
    ? p.destination.accountId
    : sys(p, 'settlement', p.received.currency.code);
}

export function holdsFundsInTransit(p: Payment): boolean {
  return ['debit', 'fund', 'receive'].some((name) => p.appliedSteps.includes(name))
    && !['settle', 'refund', 'credit'].some((n) => p.appliedSteps.includes(n));
}

function movementPostings(p: Payment, name: MovementName): Posting[] {
  const S = p.sent.currency.code;
  const R = p.received.currency.code;
  const sent = p.sent.amount;
  const received = p.received.amount;
  switch (name) {
    case 'debit':
    case 'fund':
      return [post(sourceAccount(p), S, -sent), post(sys(p, 'transit', S), S, sent)];
    case 'settle': {
      const converted = sent - p.fees.total;
      const fees = [
        post(sys(p, 'fees', S), S, p.fees.service.total),
        post(p.platformFeeAccount ?? sys(p, 'platform-fees', S), S, p.fees.platform.total),
      ];
      const exchange = S === R && converted === received
        ? []
        : [post(sys(p, 'fx', S), S, converted), post(sys(p, 'fx', R), R, -received)];
      // The destination's credit first: a closed destination refuses the step before anything moved.
      return [post(destinationAccount(p), R, received), post(sys(p, 'transit', S), S, -sent), ...fees, ...exchange];
    }
    case 'refund':
      return p.type === 'OUTGOING'
        ? [post(sys(p, 'transit', S), S, -sent), post(sourceAccount(p), S, sent)]
        : [post(sys(p, 'transit', R), R, -received), post(sys(p, 'settlement', R), R, received)];
    case 'receive':
      return [post(sys(p, 'settlement', R), R, -received), post(sys(p, 'transit', R), R, received)];
    case 'credit':
      return p.appliedSteps.includes('receive')
        ? [post(destinationAccount(p), R, received), post(sys(p, 'transit', R), R, -received)]
        : [post(destinationAccount(p), R, received), post(sys(p, 'settlement', R), R, -received)];
  }
}

export function movement(p: Payment, name: MovementName): LedgerStep {
  return ledgerStep(`${p.id}/${name}`, movementPostings(p, name), { returnsMoney: name === 'refund' });
}

export function stepName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

const MOVEMENTS: readonly string[] = [
  'fund',
  'debit',
  'settle',
  'refund',
  'receive',
  'credit',
] satisfies MovementName[];

/** The postings of every step the payment has applied, in the order applied: what its ledger entries are. */
export function appliedPostings(p: Payment): Array<Posting & { step: MovementName }> {
  return p.appliedSteps.filter((name): name is MovementName => MOVEMENTS.includes(name))
    .flatMap((name) => movement(p, name).postings.map((posting) => ({ step: name, ...posting })));
}
