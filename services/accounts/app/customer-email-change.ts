import { AppError, toAppError } from '../../../lib/errors';
import type { Logger } from '../../../lib/log';
import { MAX_PAGE_SIZE } from '../../../lib/page-cursor';
import type { Customer } from '../domain/customer';
import type { AccountsStore } from './accounts-store';
import {
  SyncOutcomeUnknown,
  type SignedRetries,
  type SignedRetryChallenge,
  type SignedRetryOutcome,
  type WalletCredentials,
  type WalletSignature,
} from './service-ports';

export const CUSTOMER_UPDATE_OPERATION = 'customer.update';
/** Longer than one change can take: the sync, the write and a restore are each bounded by a call deadline. */
const EMAIL_CHANGE_STALE_MS = 60_000;
const ATTEMPTS = 3;

/** Claims started before this are abandoned: their change is no longer running. */
export const abandonedBefore = (now: Date) => new Date(now.getTime() - EMAIL_CHANGE_STALE_MS).toISOString();

export type CustomerUpdateOutcome =
  | { kind: 'UPDATED'; customer: Customer }
  | { kind: 'CHALLENGE'; challenge: SignedRetryChallenge }
  | { kind: 'PROCESSING'; message: string };

/** An email change that the customer's wallet credentials must follow. */
export interface TiedEmailChange {
  newEmail: string;
  /** The customer's EMBEDDED_WALLET accounts with an EMAIL_OTP credential. */
  accountIds: string[];
}

export interface SignedEmailChange extends TiedEmailChange {
  platformId: string;
  current: Customer;
  /** The customer as the update leaves it. */
  next: Customer;
  body: Record<string, unknown>;
  signature: WalletSignature;
  /** The conditional customer write: throws when it did not happen. */
  write(): Promise<void>;
  /** After the write and its settlement: the follow-up work (accounts to open) and the customer. */
  completed(): Promise<Customer>;
  /** The stored customer, for identical retries of a settled change. */
  reread(): Promise<Customer>;
}

const isFirstCall = (s: WalletSignature) => s.stamp === undefined && s.requestId === undefined;

async function attempt<T>(times: number, run: () => Promise<T>): Promise<T> {
  for (let i = 1;; i++) {
    try {
      return await run();
    } catch (err) {
      if (i >= times) throw err;
    }
  }
}

/**
 * A customer email change when the email is tied to EMAIL_OTP credentials: the signed retry of
 * the auth service, and on the one claimed retry a saga across both services — the credentials
 * first, then the conditional customer write; a failed write puts the credentials back, so a
 * failure leaves both unchanged. Concurrent changes of one customer are excluded by a claim on
 * the customer record taken before the credentials change.
 */
export function createCustomerEmailChange(deps: {
  store: AccountsStore;
  credentials: WalletCredentials;
  retries: SignedRetries;
  clock: () => Date;
  logger: Logger;
}) {
  const { store, credentials } = deps;

  /** The customer's provisioned EMBEDDED_WALLET accounts that have an EMAIL_OTP credential. */
  async function emailOtpWallets(platformId: string, customerId: string): Promise<string[]> {
    const wallets = await store.internalAccounts.list(platformId, { owner: customerId, type: 'EMBEDDED_WALLET' }, {
      limit: MAX_PAGE_SIZE,
    });
    const provisioned = wallets.items.filter((a) => a.walletProvisioned).map((a) => a.id);
    return provisioned.length ? credentials.emailOtpAccounts(platformId, provisioned) : [];
  }

  /** The change, when `newEmail` (from the request) must carry the customer's credentials along. */
  async function tiedEmailChange(
    platformId: string,
    current: Customer,
    newEmail: string | undefined,
    signature: WalletSignature,
  ): Promise<TiedEmailChange | undefined> {
    if (!current.email || newEmail === undefined) return undefined;
    // An identical signed retry re-sent after the change finds the email already changed.
    if (newEmail === current.email && isFirstCall(signature)) return undefined;
    const accountIds = await emailOtpWallets(platformId, current.id);
    return accountIds.length ? { newEmail, accountIds } : undefined;
  }

  /** The credentials take the stored customer email, the source of truth whichever step failed. */
  async function alignWithStoredEmail(platformId: string, customerId: string, accountIds: string[]): Promise<void> {
    const stored = await store.customers.find(platformId, customerId);
    if (stored?.email && accountIds.length) await credentials.syncEmail(platformId, accountIds, stored.email);
  }

  /** False (logged) when the credentials could not be put back: the claim then stays for the repair sweep. */
  async function restore(change: SignedEmailChange, requestId: string): Promise<boolean> {
    try {
      await attempt(ATTEMPTS, () => alignWithStoredEmail(change.platformId, change.current.id, change.accountIds));
      return true;
    } catch (err) {
      deps.logger.error('EMAIL_OTP credentials may not carry the customer email; left to the repair sweep', {
        customerId: change.current.id,
        accountIds: change.accountIds,
        requestId,
        code: toAppError(err).code,
      });
      return false;
    }
  }

  async function release(platformId: string, customerId: string, requestId: string): Promise<void> {
    // A claim left behind only delays the next change; the repair sweep clears it.
    await store.customers.releaseEmailChange(platformId, customerId, requestId).catch((err) =>
      deps.logger.warn('email-change claim not released', { customerId, requestId, code: toAppError(err).code })
    );
  }

  async function changeBoth(change: SignedEmailChange, requestId: string): Promise<void> {
    const { platformId, current } = change;
    const now = deps.clock();
    const claimed = await store.customers.claimEmailChange({
      platformId,
      customerId: current.id,
      revision: current.revision,
      change: { requestId, startedAt: now.toISOString() },
      staleBefore: abandonedBefore(now),
    });
    if (!claimed) {
      throw new AppError('CONFLICT', 'The customer was changed by another request; retry');
    }
    let consistent = true;
    try {
      try {
        await credentials.syncEmail(platformId, change.accountIds, change.newEmail);
      } catch (err) {
        if (err instanceof SyncOutcomeUnknown) consistent = await restore(change, requestId);
        throw err;
      }
      try {
        await change.write();
      } catch (err) {
        consistent = await restore(change, requestId);
        throw err;
      }
    } finally {
      if (consistent) await release(platformId, current.id, requestId);
    }
  }

  async function settle(platformId: string, requestId: string, outcome: SignedRetryOutcome): Promise<void> {
    try {
      await attempt(ATTEMPTS, () => deps.retries.settle(platformId, requestId, outcome));
    } catch (err) {
      deps.logger.error('signed retry not settled; identical retries keep answering PROCESSING', {
        requestId,
        code: toAppError(err).code,
      });
    }
  }

  async function signedUpdate(change: SignedEmailChange): Promise<CustomerUpdateOutcome> {
    const { platformId, current, signature } = change;
    const request = { operation: CUSTOMER_UPDATE_OPERATION, targetId: current.id, body: change.body };
    if (isFirstCall(signature)) {
      const challenge = await deps.retries.begin(platformId, {
        ...request,
        signerAccountIds: change.accountIds,
        type: 'EMAIL_OTP',
        parameters: { userEmail: change.newEmail, accountIds: change.accountIds },
      });
      return { kind: 'CHALLENGE', challenge };
    }
    const answer = await deps.retries.complete(platformId, { ...request, signature });
    if (answer.state === 'PROCESSING') {
      return {
        kind: 'PROCESSING',
        message: 'The customer update is being applied; re-send the identical signed request',
      };
    }
    if (answer.state === 'SETTLED') return { kind: 'UPDATED', customer: await change.reread() };
    let outcome: SignedRetryOutcome = {
      error: { code: 'INTERNAL_ERROR', message: 'The customer update did not complete' },
    };
    try {
      await changeBoth(change, answer.requestId);
      // Identical retries re-read the customer: no customer data is kept by the auth service.
      outcome = { result: { customerId: current.id, revision: change.next.revision } };
    } catch (err) {
      const error = toAppError(err);
      outcome = { error: { code: error.code, message: error.message } };
      throw err;
    } finally {
      await settle(platformId, answer.requestId, outcome);
    }
    return { kind: 'UPDATED', customer: await change.completed() };
  }

  /**
   * An abandoned change (a crash mid-way, or a failed restore): under a fresh claim, so that no new
   * change runs meanwhile, the credentials take the stored customer email. False when the claim
   * is not stale (a change is still running) or the customer changed since it was read.
   */
  async function reconcileAbandoned(customer: Customer): Promise<boolean> {
    const now = deps.clock();
    const requestId = `repair:${customer.emailChange?.requestId ?? ''}`;
    const claimed = await store.customers.claimEmailChange({
      platformId: customer.platformId,
      customerId: customer.id,
      revision: customer.revision,
      change: { requestId, startedAt: now.toISOString() },
      staleBefore: abandonedBefore(now),
    });
    if (!claimed) return false;
    await alignWithStoredEmail(
      customer.platformId,
      customer.id,
      await emailOtpWallets(customer.platformId, customer.id),
    );
    await store.customers.releaseEmailChange(customer.platformId, customer.id, requestId);
    return true;
  }

  return { tiedEmailChange, signedUpdate, reconcileAbandoned };
}

export type CustomerEmailChange = ReturnType<typeof createCustomerEmailChange>;
