import type { Logger } from '../../../../lib/log';
import { ledgerStep, systemAccount } from '../../ledger/domain/ledger-postings';
import {
  awaitsExternalFunds,
  canMove,
  isTerminal,
  PROVIDER_RAIL,
  statusesBefore,
  statusFromProvider,
  type StablecoinOperationStatus,
} from '../domain/stablecoin-operation';
import type { Ledger } from '../../ledger/app/ledger';
import type { ProviderAccounts } from './provider-accounts';
import {
  ProviderCredentialsRevoked,
  ProviderRejected,
  ProviderUnavailable,
  type OperationRecord,
  type ProviderTransferRequest,
  type StablecoinProvider,
  type StablecoinStore,
} from './stablecoin-ports';

export interface ProgressDeps {
  store: StablecoinStore;
  provider: StablecoinProvider;
  accounts: ProviderAccounts;
  ledger: Ledger;
  clock: () => Date;
  /**
   * The worker submits a CREATED operation only once it is this old (its request is presumed gone: crashed, or the
   * provider was away).
   */
  resubmitAfterMs: number;
  /**
   * After a provider failure the worker waits baseMs, doubling per failure in a row up to maxMs, before trying that
   * operation again.
   */
  backoff?: { baseMs: number; maxMs: number };
  logger?: Logger;
}

/** What the provider is asked to move for an operation. */
export function transferRequestOf(op: OperationRecord): ProviderTransferRequest {
  const fiat = op.currency;
  const { source, destination } = op;
  if (op.operationType === 'MINT') {
    const from = source.type === 'PROVIDER_INTERNAL_BALANCE'
      ? { valueType: source.sourceTokenIdentifier!, transferType: source.cryptoNetwork!.toLowerCase() }
      : source.type === 'ACH_DEBIT' || source.type === 'SAME_DAY_ACH_DEBIT'
      ? { valueType: fiat, transferType: PROVIDER_RAIL[source.type], gridAccountId: source.externalAccountId }
      // Wire: the issuer wires to the instructions; Grid internal: Grid's settlement wires the debited funds.
      : { valueType: fiat, transferType: 'wire' };
    return {
      amountCents: op.cents,
      currency: fiat,
      source: from,
      destination: { valueType: op.valueType, transferType: 'spark', gridAccountId: destination.accountId },
      awaitsDeposit: awaitsExternalFunds(op.operationType, source.type),
    };
  }
  const from = source.type === 'GRID_INTERNAL_ACCOUNT'
    ? { valueType: op.valueType, transferType: 'spark', gridAccountId: source.accountId }
    : { valueType: op.valueType, transferType: 'spark' };
  return {
    amountCents: op.cents,
    currency: fiat,
    source: from,
    destination: {
      valueType: fiat,
      transferType: PROVIDER_RAIL[destination.rail ?? 'ACH_CREDIT'],
      gridAccountId: destination.accountId,
    },
    awaitsDeposit: awaitsExternalFunds(op.operationType, source.type),
  };
}

/**
 * Moves operations along with what the provider reports. Every step is safe to repeat and to run
 * in two processes at once: the provider transfer is created under the operation id as its
 * idempotency key, each status change is a conditional update from the states allowed before it,
 * and the ledger steps are keyed by operation.
 */
export function createOperationProgress(deps: ProgressDeps) {
  const now = () => deps.clock().toISOString();
  const backoff = deps.backoff ?? { baseMs: 1_000, maxMs: 300_000 };
  /**
   * Operations whose last provider call failed (unavailable, or the transfer not readable): the worker backs them off.
   */
  const troubled = new Set<string>();

  async function move(
    op: OperationRecord,
    to: StablecoinOperationStatus,
    changes: Partial<OperationRecord> = {},
  ): Promise<OperationRecord> {
    if (op.status === to) return (await deps.store.moveOperation(op.id, [to], changes)) ?? op;
    if (!canMove(op.status, to)) return op;
    const moved = await deps.store.moveOperation(op.id, statusesBefore(to), {
      ...changes,
      status: to,
      updatedAt: now(),
    });
    if (moved && (to === 'FAILED' || to === 'EXPIRED')) return refund(moved);
    return moved ?? (await deps.store.operation(op.platformId, op.id)) ?? op;
  }

  /** The ledger debit of a Grid-internal funded operation (repeatable: the step is keyed). False: refused for funds. */
  async function debit(op: OperationRecord): Promise<boolean> {
    const account = op.source.accountId!;
    const currency = op.operationType === 'MINT' ? op.currency : op.valueType;
    const amount = op.operationType === 'MINT' ? op.cents : Number(op.amount);
    const result = await deps.ledger.post(
      op.platformId,
      ledgerStep(`${op.id}/fund`, [
        { account, currency, amount: -amount },
        { account: systemAccount('settlement', currency, op.platformId), currency, amount },
      ]),
    );
    if (result === 'VOIDED') return false;
    await deps.store.noteOperation(op.id, { ledgerDebited: true });
    return true;
  }

  async function refund(op: OperationRecord): Promise<OperationRecord> {
    if (!op.ledgerDebited || op.ledgerRefunded) return op;
    const account = op.source.accountId!;
    const currency = op.operationType === 'MINT' ? op.currency : op.valueType;
    const amount = op.operationType === 'MINT' ? op.cents : Number(op.amount);
    await deps.ledger.post(
      op.platformId,
      ledgerStep(`${op.id}/refund`, [
        { account, currency, amount },
        { account: systemAccount('settlement', currency, op.platformId), currency, amount: -amount },
      ], { returnsMoney: true }),
    );
    await deps.store.noteOperation(op.id, { ledgerRefunded: true });
    return { ...op, ledgerRefunded: true };
  }

  /**
   * Asks the provider for the transfer (once, whatever the retries): CREATED moves on, or stays for the worker when the
   * provider is away.
   */
  async function submit(op: OperationRecord): Promise<OperationRecord> {
    if (op.status !== 'CREATED') return op;
    if (op.source.type === 'GRID_INTERNAL_ACCOUNT' && !op.ledgerDebited) {
      if (!(await debit(op))) return move(op, 'FAILED', { failureReason: 'INSUFFICIENT_BALANCE' });
      op = { ...op, ledgerDebited: true };
    }
    const account = await deps.accounts.byId(op.platformId, op.stablecoinProviderAccountId);
    if (account.status === 'REVOKED') {
      return move(op, 'FAILED', { failureReason: 'PROVIDER_ACCOUNT_REVOKED', providerStatus: 'rejected' });
    }
    try {
      const transfer = await deps.accounts.calling(
        account,
        () =>
          deps.provider.createTransfer(
            deps.accounts.credentialsOf(account),
            account.providerAccountId,
            transferRequestOf(op),
            op.id,
          ),
      );
      const awaits = awaitsExternalFunds(op.operationType, op.source.type);
      const status = statusFromProvider(transfer.status, awaits) ?? (awaits ? 'PENDING_FUNDING' : 'PENDING_PROVIDER');
      return await move(op, status, {
        providerTransferId: transfer.id,
        providerStatus: transfer.status,
        ...(transfer.fundingInstructions ? { fundingInstructions: transfer.fundingInstructions } : {}),
        ...(status === 'FAILED' ? { failureReason: 'PROVIDER_TRANSFER_FAILED' } : {}),
      });
    } catch (err) {
      if (err instanceof ProviderUnavailable) {
        troubled.add(op.id);
        deps.logger?.warn('stablecoin provider unavailable; the operation is submitted again later', {
          operationId: op.id,
        });
        return op;
      }
      if (err instanceof ProviderCredentialsRevoked) {
        return move(op, 'FAILED', { failureReason: 'PROVIDER_ACCOUNT_REVOKED', providerStatus: 'rejected' });
      }
      if (err instanceof ProviderRejected) {
        return move(op, 'FAILED', { failureReason: 'PROVIDER_REJECTED', providerStatus: 'rejected' });
      }
      throw err;
    }
  }

  /**
   * Reads the provider transfer and follows it. An unfunded operation past its expiry expires, but
   * only once the provider still reports it unfunded: Brale has no way to cancel a transfer, so funds
   * that arrived just before are followed to the end rather than expired under the issuer.
   */
  async function refresh(op: OperationRecord): Promise<OperationRecord> {
    if (op.status === 'CREATED') {
      const age = deps.clock().getTime() - Date.parse(op.updatedAt);
      return age >= deps.resubmitAfterMs ? submit(op) : op;
    }
    if (isTerminal(op.status)) return refund(op);
    const expired = op.status === 'PENDING_FUNDING' && !!op.expiresAt
      && Date.parse(op.expiresAt) <= deps.clock().getTime();
    const expire = () => move(op, 'EXPIRED', { failureReason: 'FUNDING_NOT_RECEIVED' });
    if (!op.providerTransferId) return expired ? expire() : op;
    const account = await deps.accounts.byId(op.platformId, op.stablecoinProviderAccountId);
    if (account.status === 'REVOKED') {
      // Its credentials no longer read the transfer: left as it is (backing off), to be settled at the provider.
      troubled.add(op.id);
      return op;
    }
    try {
      const transfer = await deps.accounts.calling(
        account,
        () =>
          deps.provider.getTransfer(
            deps.accounts.credentialsOf(account),
            account.providerAccountId,
            op.providerTransferId!,
          ),
      );
      const status = statusFromProvider(transfer.status, awaitsExternalFunds(op.operationType, op.source.type));
      if (!status || status === op.status) {
        if (expired) return expire();
        return transfer.status === op.providerStatus
          ? op
          : (await deps.store.moveOperation(op.id, [op.status], { providerStatus: transfer.status, updatedAt: now() }))
            ?? op;
      }
      return await move(op, status, {
        providerStatus: transfer.status,
        ...(status === 'FAILED' ? { failureReason: 'PROVIDER_TRANSFER_FAILED' } : {}),
      });
    } catch (err) {
      // A transfer the provider refuses to show cannot be funded any more; an unreachable provider is asked again.
      if (expired && err instanceof ProviderRejected) return expire();
      if (err instanceof ProviderUnavailable || err instanceof ProviderRejected) {
        troubled.add(op.id);
        deps.logger?.warn('stablecoin transfer not read; tried again later', {
          operationId: op.id,
          err: (err as Error).message,
        });
        return op;
      }
      throw err;
    }
  }

  /**
   * One pass of the worker over the operations due. Each one looked at goes to the back of the queue
   * (its nextAttemptAt is now, or later after a provider failure, backing off per operation), so a
   * backlog stuck on an unavailable provider never starves the others.
   */
  async function tick(batch = 50): Promise<number> {
    const due = await deps.store.unfinishedOperations(batch, now());
    for (const op of due) {
      troubled.delete(op.id);
      let failed = true;
      try {
        await refresh(op);
        failed = troubled.has(op.id);
      } catch (err) {
        deps.logger?.error('stablecoin operation not advanced', { operationId: op.id, err });
      }
      troubled.delete(op.id);
      await schedule(op, failed);
    }
    return due.length;
  }

  async function schedule(op: OperationRecord, failed: boolean): Promise<void> {
    const failedAttempts = failed ? (op.failedAttempts ?? 0) + 1 : 0;
    const waitMs = failed ? Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(failedAttempts - 1, 30)) : 0;
    await deps.store.noteOperation(op.id, {
      nextAttemptAt: new Date(deps.clock().getTime() + waitMs).toISOString(),
      failedAttempts,
    });
  }

  return { submit, refresh, tick, move };
}

export type OperationProgress = ReturnType<typeof createOperationProgress>;
