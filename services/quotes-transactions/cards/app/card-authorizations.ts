import type { NewEvent } from '../../../../lib/bus/outbox';
import { cardTransactionJson } from '../../../../lib/contract/card-transaction-json';
import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import type { Card } from '../domain/card';
import type { WalletFundedSpend } from '../../delegated-keys/domain/delegated-key';
import { toCardTransactionView } from '../domain/card-records';
import {
  advicePlan,
  cardDeclineReason,
  clearingPlan,
  isCreditKind,
  decidedTransaction,
  decisionStep,
  expiryPlan,
  pullConfirmationPlan,
  returnPlan,
  returnReversalPlan,
  undoDecisionStep,
  type CardAuthorizationKind,
  type CardDeclineReason,
  type CardMerchant,
  type CardTransaction,
  type EventPlan,
} from '../domain/card-transaction';
import type { Ledger } from '../../ledger/app/ledger';
import type { Caller } from '../../shared/app/payment-accounts';
import type { CardTransactionEntry, CardTransactionStore } from './card-transaction-store';

export type AuthorizationDecision =
  | { approved: true; transaction: CardTransaction }
  | { approved: false; transactionId: string; reason: CardDeclineReason };

export interface AuthorizationRequest {
  /** Default AUTHORIZATION. */
  kind?: CardAuthorizationKind;
  /** 0 for a balance inquiry (its only amount). */
  amount: number;
  currency?: string;
  merchant: CardMerchant;
  issuerTransactionToken?: string;
  /** The issuer declined before asking (the sandbox's descriptor suffixes): recorded as a decline with this reason. */
  declinedByIssuer?: CardDeclineReason;
  /** The issuer will confirm the pull later (by `confirmPull`); until then pullSummary.pendingCount is 1. */
  pullConfirmAt?: string;
}

/**
 * Authorization decisioning and reconciliation: what the issuer port calls in production and the
 * sandbox simulations call here. An authorization holds its amount on the card's first funding
 * source whose available balance covers it (the ledger's guarded debit decides, so concurrent
 * authorizations never overdraw); clearings and returns are recorded before their ledger step
 * applies and finished after it, one at a time per transaction.
 */
export function createCardAuthorizations(deps: {
  store: CardTransactionStore;
  ledger: Ledger;
  newEvent: NewEvent;
  clock: () => Date;
  card: (caller: Caller, id: string) => Promise<Card>;
  platformCustomerId: (caller: Caller, customerId: string) => Promise<string>;
  /**
   * Why an embedded-wallet source may not fund this amount (no ACTIVE delegated key, over its limit); absent: no wallet
   * source funds.
   */
  delegation?: (spend: WalletFundedSpend) => Promise<CardDeclineReason | undefined>;
}) {
  const webhook = (tx: CardTransaction) =>
    deps.newEvent({
      type: `CARD_TRANSACTION.${tx.status}`,
      version: 1,
      platformId: tx.platformId,
      aggregateId: tx.id,
      data: cardTransactionJson(toCardTransactionView(tx)),
    });

  async function authorize(
    caller: Caller,
    cardId: string,
    request: AuthorizationRequest,
  ): Promise<AuthorizationDecision> {
    const kind = request.kind ?? 'AUTHORIZATION';
    const inquiry = kind === 'BALANCE_INQUIRY';
    if (!Number.isSafeInteger(request.amount) || request.amount < 0 || (request.amount === 0) !== inquiry) {
      throw AppError.invalidInput('Invalid authorization', [{
        field: 'amount',
        message: inquiry
          ? 'a balance inquiry is a zero-amount authorization'
          : 'must be a positive integer in minor units',
      }]);
    }
    const card = await deps.card(caller, cardId);
    const currency = request.currency ?? card.currency;
    const id = newId('CardTransaction');
    const at = deps.clock().toISOString();
    const entry: CardTransactionEntry = {
      id,
      platformId: caller.platformId,
      cardId,
      customerId: card.cardholderId,
      platformCustomerId: await deps.platformCustomerId(caller, card.cardholderId),
      issuerTransactionToken: request.issuerTransactionToken ?? id.slice('CardTransaction:'.length),
      status: 'AUTHORIZED',
      merchant: request.merchant,
      currency,
      accountId: card.fundingSources[0] ?? '',
      authorizedAmount: request.amount,
      held: 0,
      settled: 0,
      refunded: 0,
      pulls: { count: 0, totalAmount: 0 },
      settlements: { count: 0, totalAmount: 0 },
      refunds: { count: 0, totalAmount: 0 },
      events: 0,
      authorizedAt: at,
      createdAt: at,
      updatedAt: at,
      decision: 'DECIDING',
      sources: [...card.fundingSources],
      kind,
      ...(request.pullConfirmAt ? { pendingPulls: 1, pullConfirmAt: request.pullConfirmAt } : {}),
    };
    const declined = async (reason: CardDeclineReason): Promise<AuthorizationDecision> => {
      await deps.store.decide(caller.platformId, id, { decision: 'DECLINED', declineReason: reason }, []);
      return { approved: false, transactionId: id, reason };
    };
    // A credit the balance cannot take is refused before anything is recorded (400 INVALID_AMOUNT).
    if (isCreditKind(kind) && entry.accountId) {
      await deps.ledger.assertCreditFits(caller.platformId, entry.accountId, currency, request.amount);
    }
    // Recorded before any money moves: a hold is never without its transaction.
    await deps.store.insert(entry);
    const refused = request.declinedByIssuer ?? cardDeclineReason(card, currency);
    if (refused) return declined(refused);
    let walletRefusal: CardDeclineReason | undefined;
    let balanceTried = false;
    for (const [attempt, accountId] of card.fundingSources.entries()) {
      const walletFunded = !isCreditKind(kind) && !!card.walletSources?.includes(accountId);
      if (walletFunded) {
        const spend = { platformId: caller.platformId, cardId, accountId, currency, amount: request.amount };
        const refusal = deps.delegation ? await deps.delegation(spend) : 'DELEGATED_KEY_REQUIRED';
        if (refusal) {
          walletRefusal ??= refusal;
          continue;
        }
      }
      balanceTried = true;
      const step = decisionStep({
        kind,
        transactionId: id,
        attempt,
        platformId: caller.platformId,
        accountId,
        currency,
        amount: request.amount,
      });
      // The entry's creation is when its decision steps started: recovery replays them from the same time.
      if (step && (await deps.ledger.applyStep(caller.platformId, step, at)) !== 'APPLIED') continue;
      const transaction = decidedTransaction(stripEntry(entry), kind, accountId);
      const { id: _id, ...decided } = transaction;
      if (
        !(await deps.store.decide(caller.platformId, id, {
          ...decided,
          decision: 'APPROVED',
          ...(walletFunded ? { walletFunded } : {}),
        }, [webhook(transaction)]))
      ) {
        // Recovery took it for interrupted and released the hold first.
        return { approved: false, transactionId: id, reason: 'DECISION_INTERRUPTED' };
      }
      return { approved: true, transaction };
    }
    return declined(balanceTried || !walletRefusal ? 'INSUFFICIENT_FUNDS' : walletRefusal);
  }

  async function approved(caller: Caller, cardId: string, transactionId: string): Promise<CardTransactionEntry> {
    const entry = await deps.store.get(caller.platformId, transactionId);
    if (!entry || entry.cardId !== cardId || entry.decision !== 'APPROVED') {
      throw AppError.notFound(`Card transaction ${transactionId}`);
    }
    return entry;
  }

  /**
   * Applies a recorded event's ledger step and records its outcome (again, harmlessly, when another
   * run did). The step is replayed from when it was claimed, so the ledger finds its postings
   * however far back they were archived, and never applies one twice.
   */
  async function finishPending(entry: CardTransactionEntry): Promise<CardTransaction> {
    const plan = entry.pending!;
    const result = plan.step
      ? await deps.ledger.applyStep(entry.platformId, plan.step, plan.startedAt ?? entry.updatedAt)
      : 'APPLIED';
    const outcome = result === 'APPLIED' ? plan.next : plan.ifRefused ?? plan.next;
    const tx = stripEntry(entry);
    const events = outcome.status !== tx.status || (plan.announce && outcome === plan.next) ? [webhook(outcome)] : [];
    await deps.store.finish(tx, outcome, events);
    return outcome;
  }

  /** One reconciliation event, serialized per transaction: a concurrent event makes this one re-read and plan again. */
  async function reconcile(
    caller: Caller,
    cardId: string,
    transactionId: string,
    plan: (tx: CardTransaction, at: string) => EventPlan,
  ): Promise<CardTransaction> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const entry = await approved(caller, cardId, transactionId);
      if (entry.pending) {
        await finishPending(entry);
        continue;
      }
      const tx = stripEntry(entry);
      let next: EventPlan;
      const at = deps.clock().toISOString();
      try {
        next = { ...plan(tx, at), startedAt: at };
      } catch (err) {
        throw new AppError('INVALID_STATE', (err as Error).message);
      }
      if (!(await deps.store.begin(tx, next))) continue;
      return finishPending({ ...entry, pending: next });
    }
    throw new AppError('CONFLICT', `Card transaction ${transactionId} is being reconciled concurrently; try again`);
  }

  /**
   * A decision left DECIDING by a crash never answered the issuer: each hold it may have placed is
   * given back (re-applying a hold is idempotent; one never placed is placed and released) and it
   * is declined DECISION_INTERRUPTED. An event left pending is finished. Every step is replayed
   * from the entry's creation, when the decision's first step could start, so a posting archived
   * since is found and never applied twice.
   */
  async function finishInterrupted(olderThanMs: number): Promise<number> {
    const before = new Date(deps.clock().getTime() - olderThanMs).toISOString();
    const entries = await deps.store.interrupted(before, 50);
    for (const entry of entries) {
      if (entry.pending) {
        await finishPending(entry);
        continue;
      }
      // Claimed first: a live decision finishing now finds it no longer DECIDING and declines.
      const claimed = entry.releasing || (entry.decision === 'DECIDING'
        && await deps.store.decide(entry.platformId, entry.id, {
          decision: 'DECLINED',
          declineReason: 'DECISION_INTERRUPTED',
          releasing: true,
        }, []));
      if (!claimed) continue;
      const kind = entry.kind ?? 'AUTHORIZATION';
      let undone = true;
      for (const [attempt, accountId] of (entry.sources ?? []).entries()) {
        const move = {
          kind,
          transactionId: entry.id,
          attempt,
          platformId: entry.platformId,
          accountId,
          currency: entry.currency,
          amount: entry.authorizedAmount,
        };
        const step = decisionStep(move);
        if (!step || (await deps.ledger.applyStep(entry.platformId, step, entry.createdAt)) !== 'APPLIED') continue;
        const undo = undoDecisionStep(move)!;
        // A credit already spent cannot be taken back yet: the entry stays releasing and the next pass tries again.
        if ((await deps.ledger.applyStep(entry.platformId, undo, entry.createdAt)) !== 'APPLIED') undone = false;
      }
      if (undone) await deps.store.released(entry.platformId, entry.id);
    }
    return entries.length;
  }

  /**
   * Authorizations not cleared `olderThanMs` after they were approved expire: what is still held
   * goes back to the source (SETTLED, as a zero-amount clearing). Due sandbox pull confirmations
   * are confirmed. Each transaction is reconciled by the same serialized event as a clearing.
   */
  async function expireStale(olderThanMs: number, limit = 50): Promise<number> {
    const now = deps.clock();
    const stale = await deps.store.stale(new Date(now.getTime() - olderThanMs).toISOString(), limit);
    const confirmable = await deps.store.pullsDue(now.toISOString(), limit);
    for (const entry of stale) await settleQuietly(entry, expiryPlan);
    for (const entry of confirmable) await settleQuietly(entry, (tx, at) => pullConfirmationPlan(tx, 'CONFIRMED', at));
    return stale.length + confirmable.length;
  }

  /** A worker's event: one that no longer applies (another event moved the transaction on) is skipped. */
  async function settleQuietly(entry: CardTransactionEntry, plan: (tx: CardTransaction, at: string) => EventPlan) {
    try {
      await reconcile({ platformId: entry.platformId }, entry.cardId, entry.id, plan);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }

  /**
   * An authorization advice. A hold on an embedded wallet grows only as an authorization of the new
   * total would be approved: its delegated key still ACTIVE and the total within its limit. Asked
   * whatever the direction, since a concurrent advice may turn a shrink into growth before it applies.
   */
  async function advise(
    caller: Caller,
    cardId: string,
    transactionId: string,
    amount: number,
  ): Promise<CardTransaction> {
    const entry = await approved(caller, cardId, transactionId);
    const refusal = entry.walletFunded
      ? deps.delegation
        ? await deps.delegation({
          platformId: caller.platformId,
          cardId,
          accountId: entry.accountId,
          currency: entry.currency,
          amount,
        })
        : 'DELEGATED_KEY_REQUIRED'
      : undefined;
    return reconcile(caller, cardId, transactionId, (tx, at) => advicePlan(tx, amount, at, refusal));
  }

  return {
    authorize,
    finishInterrupted,
    expireStale,
    advise,
    reverseReturn: (caller: Caller, cardId: string, transactionId: string) =>
      reconcile(caller, cardId, transactionId, (tx, at) => returnReversalPlan(tx, at)),
    /** The issuer's confirmation of a pull it approved (FAILED: the sandbox's suffix 006). */
    confirmPull: (caller: Caller, cardId: string, transactionId: string, outcome: 'CONFIRMED' | 'FAILED') =>
      reconcile(caller, cardId, transactionId, (tx, at) => pullConfirmationPlan(tx, outcome, at)),
    clear: (caller: Caller, cardId: string, transactionId: string, amount: number) =>
      reconcile(caller, cardId, transactionId, (tx, at) => clearingPlan(tx, amount, at)),
    refund: (caller: Caller, cardId: string, transactionId: string, amount: number) =>
      reconcile(caller, cardId, transactionId, (tx, at) => returnPlan(tx, amount, at)),
    get: async (caller: Caller, cardId: string, transactionId: string) =>
      stripEntry(await approved(caller, cardId, transactionId)),
  };
}

function stripEntry(entry: CardTransactionEntry): CardTransaction {
  const { decision: _d, declineReason: _r, pending: _p, releasing: _l, sources: _s, walletFunded: _w, ...tx } = entry;
  return tx;
}

export type CardAuthorizations = ReturnType<typeof createCardAuthorizations>;
