import { AppError } from '../../../../lib/errors';
import type { DomainEvent } from '../../../../lib/bus/event-bus';
import type { NewEvent } from '../../../../lib/bus/outbox';
import type { Payment, ScaState } from '../domain/payment';
import type { Caller } from '../../shared/app/payment-accounts';
import { paymentEvents } from './payment-events';
import type { PaymentStore } from './payment-store';

export interface ScaProof {
  code?: string;
  passkeyAssertionJson?: string;
  origin?: string;
  endUserIpAddress?: string;
}

/** The accounts service's Strong Customer Authentication, as payments need it (adapters/accounts-sca-gate.ts). */
export interface ScaGate {
  /**
   * One read: whether the customer is under SCA, whether this payee still needs a challenge, whether an SCA session is
   * live.
   */
  requirement(
    caller: Caller,
    customerId: string,
    payeeAccountId?: string,
  ): Promise<{ scaCustomer: boolean; challengeRequired: boolean; sessionLive?: boolean }>;
  issue(
    caller: Caller,
    request: {
      customerId: string;
      binding: string;
      purpose: string;
      factor?: string;
      summary: string;
      expiresAt: string;
    },
  ): Promise<ScaState['challenge']>;
  resend(caller: Caller, customerId: string, challengeId: string): Promise<void>;
  /**
   * Spends the proof for the challenge bound to `binding`; requires a live SCA session. `repeated`: the
   * proof already completed this challenge or one of `earlierChallengeIds` (nothing was spent or counted).
   */
  verify(caller: Caller, request: {
    customerId: string;
    challengeId: string;
    binding: string;
    proof: ScaProof;
    earlierChallengeIds?: string[];
  }): Promise<{ repeated: boolean; completedChallengeId?: string }>;
}

const payeeOf = (
  p: Payment,
) => (p.destination.destinationType === 'ACCOUNT' ? p.destination.accountId : p.destination.umaAddress);
const payeeAccountOf = (
  p: Payment,
) => (p.destination.destinationType === 'ACCOUNT' && p.destination.accountKind === 'EXTERNAL'
  ? p.destination.accountId
  : undefined);

/** Dynamic linking: the proof is bound to this quote, its amount and currency, and its payee. */
export function scaBinding(p: Payment): string {
  return `quote:${p.quote!.id}:${p.sent.amount} ${p.sent.currency.code}:${payeeOf(p)}`;
}

const summaryOf = (p: Payment) =>
  `Pay ${p.sent.amount / 10 ** p.sent.currency.decimals} ${p.sent.currency.code} to ${payeeOf(p)}`;
const conversionSummaryOf = (p: Payment) =>
  `Convert ${p.sent.amount / 10 ** p.sent.currency.decimals} ${p.sent.currency.code} to ${p.received.currency.code}`;

/**
 * The challenges a payment is authorized by, in order (the reference's ScaChallenge): a cross-currency
 * send authorizes the currency conversion, then the payout (or the realtime-funded transfer).
 */
export function authorizationSteps(p: Payment): string[] {
  const last = p.source.sourceType === 'REALTIME_FUNDING' ? 'TRANSFER' : 'PAYOUT';
  return p.sent.currency.code === p.received.currency.code ? [last] : ['CURRENCY_CONVERSION', last];
}

/** Each step's proof is bound to its own purpose: a conversion proof never authorizes the payout. */
function stepBinding(p: Payment, purpose: string): string {
  return purpose === 'CURRENCY_CONVERSION' ? `${scaBinding(p)}:CURRENCY_CONVERSION` : scaBinding(p);
}

/** Whether the customer's sources fall under SCA (an embedded wallet authorizes by its own signature). */
export function scaApplies(p: Payment): boolean {
  if (!p.customerId || p.type !== 'OUTGOING' || !p.quote) return false;
  if (p.source.sourceType === 'REALTIME_FUNDING') return true;
  return p.source.sourceType === 'ACCOUNT' && p.source.accountKind === 'INTERNAL'
    && p.source.internalType !== 'EMBEDDED_WALLET';
}

function scaNotRequired(): AppError {
  return new AppError('CONFLICT', "Strong Customer Authentication is not required for this quote's customer");
}

export function createQuoteAuthorization(deps: {
  gate: ScaGate;
  payments: PaymentStore;
  newEvent: NewEvent;
  clock: () => Date;
  execute: (command: { caller: Caller; quoteId: string }) => Promise<Payment>;
}) {
  const { gate, payments } = deps;

  /** The challenge of one step of `p`'s authorization, each bound to its own purpose. */
  async function issueStep(caller: Caller, p: Payment, purposes: string[], factor?: string): Promise<ScaState> {
    const [purpose, ...nextPurposes] = purposes;
    const binding = stepBinding(p, purpose);
    const summary = purpose === 'CURRENCY_CONVERSION' ? conversionSummaryOf(p) : summaryOf(p);
    const challenge = await gate.issue(caller, {
      customerId: p.customerId,
      binding,
      purpose,
      factor,
      summary,
      expiresAt: p.quote!.expiresAt,
    });
    return { challenge, binding, ...(nextPurposes.length ? { nextPurposes } : {}) };
  }

  /** The first challenge for `p`, or undefined when its customer or payee needs none. */
  async function challengeFor(caller: Caller, p: Payment, factor?: string): Promise<ScaState | undefined> {
    if (!scaApplies(p)) return undefined;
    const { challengeRequired } = await gate.requirement(caller, p.customerId, payeeAccountOf(p));
    if (!challengeRequired) return undefined;
    return issueStep(caller, p, authorizationSteps(p), factor);
  }

  /**
   * The quote once the request that completed its current step has moved it on (a concurrent
   * original still writing): read again for a short while, then as it stands.
   */
  async function afterStep(p: Payment): Promise<Payment> {
    for (let i = 0; i < 100; i += 1) {
      const fresh = (await payments.get(p.platformId, p.id)) ?? p;
      if (fresh.status !== 'PENDING_AUTHORIZATION' || fresh.sca?.challenge.id !== p.sca?.challenge.id) return fresh;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return p;
  }

  /** An authorized quote: the proof of any of its steps again answers it as it stands; another proof, 409. */
  async function repeatOfAuthorized(caller: Caller, p: Payment, proof: ScaProof): Promise<Payment> {
    const sca = p.sca!;
    try {
      const { repeated } = await gate.verify(caller, {
        customerId: p.customerId,
        challengeId: sca.challenge.id,
        binding: sca.binding,
        proof,
        earlierChallengeIds: sca.completedChallengeIds ?? [],
      });
      if (repeated) return p;
    } catch (err) {
      if (!(err instanceof AppError) || err.code === 'ACCOUNT_LOCKED' || err.code === 'SCA_SESSION_REQUIRED') throw err;
    }
    throw new AppError('CONFLICT', `The quote is ${p.status}: no challenge awaits authorization`);
  }

  const held = (p: Payment, sca: ScaState, now: string): Payment => ({
    ...p,
    status: 'PENDING_AUTHORIZATION',
    sca,
    updatedAt: now,
  });

  return {
    /** A new realtime-funded quote: PENDING_AUTHORIZATION with its instructions withheld, when SCA asks. */
    async holdNew(caller: Caller, p: Payment): Promise<{ payment: Payment; events: string[] }> {
      const sca = await challengeFor(caller, p);
      if (!sca) return { payment: p, events: ['QUOTE.CREATED', 'OUTGOING_PAYMENT.PENDING'] };
      const { paymentInstructions, ...quote } = p.quote!;
      const payment = {
        ...held(
          p,
          { ...sca, ...(paymentInstructions ? { withheldInstructions: paymentInstructions } : {}) },
          p.updatedAt,
        ),
        quote,
      };
      return { payment, events: ['QUOTE.CREATED', 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION'] };
    },

    /** Executing an account-funded quote: held for authorization (the held quote), or undefined to execute now. */
    async holdExecution(caller: Caller, p: Payment, factor?: string): Promise<Payment | undefined> {
      if (p.sca?.authorizedAt) return undefined;
      const sca = await challengeFor(caller, p, factor);
      if (!sca) return undefined;
      const next = held(p, sca, deps.clock().toISOString());
      if (
        await payments.update(p, next, paymentEvents(deps.newEvent, next, ['OUTGOING_PAYMENT.PENDING_AUTHORIZATION']))
      ) return next;
      const fresh = await payments.get(p.platformId, p.id);
      if (fresh?.status === 'PENDING_AUTHORIZATION') throw awaitingAuthorization(fresh);
      throw new AppError('CONFLICT', 'The quote changed meanwhile: read it again');
    },

    async authorize(caller: Caller, quoteId: string, proof: ScaProof): Promise<Payment> {
      const p = await payments.getByQuote(caller.platformId, quoteId);
      if (!p?.quote) throw new AppError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
      if (p.sca?.authorizedAt) return repeatOfAuthorized(caller, p, proof);
      if (!p.sca || p.status !== 'PENDING_AUTHORIZATION') {
        if (!scaApplies(p) || !(await gate.requirement(caller, p.customerId)).scaCustomer) throw scaNotRequired();
        throw new AppError('CONFLICT', `The quote is ${p.status}: no challenge awaits authorization`);
      }
      if (deps.clock().getTime() >= Date.parse(p.sca.challenge.expiresAt)) {
        throw AppError.invalidInput('The challenge has expired', [{
          field: 'quoteId',
          message: "the quote's challenge has expired",
        }]);
      }
      const completed = p.sca.completedChallengeIds ?? [];
      const { repeated, completedChallengeId } = await gate.verify(caller, {
        customerId: p.customerId,
        challengeId: p.sca.challenge.id,
        binding: p.sca.binding,
        proof,
        earlierChallengeIds: completed,
      });
      // A repeat of a step's proof (a client's retry) answers the quote as that step left it, or later.
      if (repeated) {
        return completedChallengeId === p.sca.challenge.id
          ? afterStep(p)
          : (await payments.get(p.platformId, p.id)) ?? p;
      }
      const now = deps.clock().toISOString();
      const completedChallengeIds = [...completed, p.sca.challenge.id];
      if (p.sca.nextPurposes?.length) {
        // Still PENDING_AUTHORIZATION, now with the next step's challenge (same factor).
        const step = await issueStep(caller, p, p.sca.nextPurposes, p.sca.challenge.factor);
        const pending: Payment = {
          ...p,
          sca: {
            ...step,
            completedChallengeIds,
            ...(p.sca.withheldInstructions ? { withheldInstructions: p.sca.withheldInstructions } : {}),
          },
          updatedAt: now,
        };
        if (!(await payments.update(p, pending, []))) {
          throw new AppError('CONFLICT', 'The quote was authorized meanwhile');
        }
        return pending;
      }
      const authorized: ScaState = {
        binding: p.sca.binding,
        challenge: p.sca.challenge,
        authorizedAt: now,
        completedChallengeIds: completed,
      };
      const instructions = p.sca.withheldInstructions;
      const next: Payment = {
        ...p,
        status: 'PENDING',
        sca: authorized,
        updatedAt: now,
        quote: { ...p.quote, ...(instructions ? { paymentInstructions: instructions } : {}) },
      };
      const events: DomainEvent[] = paymentEvents(deps.newEvent, next, ['OUTGOING_PAYMENT.PENDING']);
      if (!(await payments.update(p, next, events))) {
        throw new AppError('CONFLICT', 'The quote was authorized meanwhile');
      }
      return p.source.sourceType === 'REALTIME_FUNDING' ? next : deps.execute({ caller, quoteId });
    },

    async resend(caller: Caller, quoteId: string): Promise<void> {
      const p = await payments.getByQuote(caller.platformId, quoteId);
      if (!p?.quote) throw new AppError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
      if (!p.sca || p.status !== 'PENDING_AUTHORIZATION') {
        if (!scaApplies(p) || !(await gate.requirement(caller, p.customerId)).scaCustomer) throw scaNotRequired();
        throw new AppError('CONFLICT', `The quote is ${p.status}: no challenge awaits authorization`);
      }
      await gate.resend(caller, p.customerId, p.sca.challenge.id);
    },
  };
}

/** Executing a quote held for SCA is refused: it is released by POST /quotes/{id}/authorize. */
export function awaitingAuthorization(p: Payment): AppError {
  return new AppError(
    'CONFLICT',
    `Quote ${p.quote!.id} awaits Strong Customer Authentication: authorize it with POST /quotes/${
      p.quote!.id
    }/authorize`,
    {
      quoteId: p.quote!.id,
      status: 'PENDING_AUTHORIZATION',
    },
  );
}

export type QuoteAuthorization = ReturnType<typeof createQuoteAuthorization>;
