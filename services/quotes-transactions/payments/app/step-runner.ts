import { AppError } from '../../../../lib/errors';
import type { DomainEvent } from '../../../../lib/bus/event-bus';
import type { NewEvent } from '../../../../lib/bus/outbox';
import type { LedgerStep } from '../../ledger/domain/ledger-postings';
import { releasesDailyVolume } from '../domain/limits';
import { applyChange } from '../domain/payment-change';
import { movement, stepName } from '../domain/payment-movements';
import type { Payment, PaymentChange, PendingStep } from '../domain/payment';
import type { PlannedChange } from '../domain/settlement-plan';
import type { ReleaseDailyVolume } from './daily-volume';
import type { Ledger } from '../../ledger/app/ledger';
import { paymentEvents } from './payment-events';
import type { PaymentStore } from './payment-store';

/** A conditional write lost to a concurrent change of the same payment. */
export class PaymentMovedOn extends AppError {
  constructor(id: string) {
    super('CONFLICT', `Transaction ${id} changed concurrently; read it again`);
  }
}

/**
 * Carries out planned payment changes. A change with a ledger movement is done in three writes:
 * (1) the payment records the step it is about to apply (`pendingStep`, conditional on its
 * version, so only one process ever starts a given change); (2) the ledger applies the step's
 * postings idempotently; (3) the payment takes the planned change, its events (the step's balance
 * events among them), and forgets the step. A crash after (1) leaves a pending step that `finish`
 * — called by the recovery worker — rolls forward, or, if the guarded debit never went in,
 * resolves with the planned alternative.
 *
 * A change that records an outgoing payment's failure gives back its daily volume in step (2),
 * so it too is a step (with no postings when it moves no money): the failure is never recorded
 * without the release, and a replay releases nothing twice.
 */
export function createStepRunner(
  deps: {
    payments: PaymentStore;
    ledger: Ledger;
    releaseDailyVolume: ReleaseDailyVolume;
    newEvent: NewEvent;
    clock: () => Date;
  },
) {
  async function write(
    current: Payment,
    change: Pick<PaymentChange, 'set' | 'unset'>,
    kinds: readonly string[],
    balanceEvents: DomainEvent[] = [],
  ): Promise<Payment> {
    const next = applyChange(current, change, deps.clock());
    const events = [...paymentEvents(deps.newEvent, next, kinds), ...balanceEvents];
    if (!(await deps.payments.update(current, next, events))) throw new PaymentMovedOn(current.id);
    return next;
  }

  async function finish(p: Payment): Promise<Payment> {
    const pending = p.pendingStep;
    if (!pending) return p;
    const movesMoney = pending.postings.length > 0;
    // The step's balance events are written with the payment's record of it (3).
    const { result, events } = movesMoney
      ? await deps.ledger.applyStepForRecord(p.platformId, pending, pending.startedAt)
      : { result: 'APPLIED', events: [] };
    const outcome = result === 'APPLIED' ? pending.then : pending.onVoid;
    if (!outcome) throw new Error(`step ${pending.key} was refused and has no alternative`);
    if (releasesDailyVolume(p, outcome)) await deps.releaseDailyVolume(p);
    const applied = result === 'APPLIED' && movesMoney
      ? { appliedSteps: [...p.appliedSteps, stepName(pending.key)] }
      : {};
    try {
      return await write(
        p,
        { set: { ...outcome.set, ...applied }, unset: [...(outcome.unset ?? []), 'pendingStep'] },
        outcome.events,
        events,
      );
    } catch (err) {
      if (!(err instanceof PaymentMovedOn)) throw err;
      const fresh = await deps.payments.get(p.platformId, p.id);
      if (!fresh) throw err;
      // Another process finished the same step (or is about to): its outcome stands.
      return fresh.pendingStep?.key === pending.key ? finish(fresh) : fresh;
    }
  }

  /** Applies a plan; `claim` is written with the first write (e.g. the quote's executedAt). */
  async function run(p: Payment, plan: PlannedChange, claim: Partial<Payment> = {}): Promise<Payment> {
    const releasing = releasesDailyVolume(p, plan.change);
    if (!plan.movement && !releasing) {
      return write(p, { set: { ...claim, ...plan.change.set }, unset: plan.change.unset }, plan.change.events);
    }
    // A payment fails at most once, so one key serves its failure step.
    const step: LedgerStep = plan.movement
      ? movement({ ...p, ...claim }, plan.movement)
      : { key: `${p.id}/failure`, postings: [] };
    const pendingStep: PendingStep = {
      ...step,
      startedAt: deps.clock().toISOString(),
      then: plan.change,
      ...(plan.onVoid ? { onVoid: plan.onVoid } : {}),
    };
    return finish(await write(p, { set: { ...claim, pendingStep } }, []));
  }

  return { run, finish };
}

export type StepRunner = ReturnType<typeof createStepRunner>;
