import { AppError, isErrorCode } from '../../../../lib/errors';
import type { Logger } from '../../../../lib/log';
import type { OperationError, SignedRetryRecord } from '../../domain/wallet-auth/signed-retry-record';
import type { KeyedLock } from '../../../../lib/keyed-lock';
import type { SignedRetryStore } from './wallet-auth-stores';
import type { WalletOperation, WalletProvider } from './wallet-provider';

/** How one kind of signed-retry operation runs at the wallet provider and lands locally. */
export interface OperationExecutor {
  providerOperation(record: SignedRetryRecord): WalletOperation;
  /** Applies the settled provider result, idempotently (it can run twice); answers the result to keep. */
  apply(record: SignedRetryRecord, providerResult: Record<string, string>): Promise<Record<string, unknown>>;
  /** The answer for a settled operation, when it is not simply the kept result (export). */
  present?(record: SignedRetryRecord, kept: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The error a provider failure becomes (default INTERNAL_ERROR). */
  failure?(reason: string): OperationError;
}

export type RunAnswer = { state: 'PROCESSING' } | { state: 'SETTLED'; result: Record<string, unknown> };

export function errorOf(error: OperationError): AppError {
  return new AppError(isErrorCode(error.code) ? error.code : 'INTERNAL_ERROR', error.message, error.details);
}

/** Drives claimed operations to their end: submit, apply, keep the outcome; and reconciles. */
export function createOperationRunner(deps: {
  store: SignedRetryStore;
  provider: WalletProvider;
  executors: Record<string, OperationExecutor>;
  lock: KeyedLock;
  now: () => Date;
  logger: Logger;
}) {
  const executorOf = (record: SignedRetryRecord) => {
    const executor = deps.executors[record.operation];
    if (!executor) throw new AppError('INTERNAL_ERROR', `no executor for ${record.operation}`);
    return executor;
  };

  const answerSettled = async (record: SignedRetryRecord): Promise<RunAnswer> => {
    const run = record.run!;
    if (run.state === 'FAILED') throw errorOf(run.error!);
    const kept = run.result ?? {};
    const present = run.external ? undefined : executorOf(record).present;
    return { state: 'SETTLED', result: present ? await present(record, kept) : kept };
  };

  const keep = async (
    record: SignedRetryRecord,
    outcome: { result?: Record<string, unknown>; error?: OperationError },
  ) => {
    const state = outcome.error ? 'FAILED' : 'SETTLED';
    const stored = await deps.store.settle(record.id, record.run!.id, {
      state,
      ...outcome,
      settledAt: deps.now().toISOString(),
    });
    return stored ?? (await deps.store.find(record.platformId, record.id))!;
  };

  /** One step: answers the terminal result, or PROCESSING while the provider has not settled. */
  async function settleOnce(record: SignedRetryRecord): Promise<RunAnswer> {
    const run = record.run;
    if (!run) throw new AppError('INTERNAL_ERROR', 'the challenge has no operation');
    if (run.state !== 'PENDING') return answerSettled(record);
    if (run.external) return { state: 'PROCESSING' };
    const executor = executorOf(record);
    let answer;
    try {
      answer = await deps.provider.submit(executor.providerOperation(record));
    } catch (err) {
      deps.logger.warn('wallet provider unreachable; the operation stays pending', { operationId: run.id, err });
      return { state: 'PROCESSING' };
    }
    if (answer.status === 'PENDING') return { state: 'PROCESSING' };
    if (answer.status === 'FAILED') {
      const error = executor.failure?.(answer.reason)
        ?? { code: 'INTERNAL_ERROR' as const, message: 'The wallet provider refused the operation' };
      return answerSettled(await keep(record, { error }));
    }
    try {
      return answerSettled(await keep(record, { result: await executor.apply(record, answer.result) }));
    } catch (err) {
      if (!(err instanceof AppError) || err.code === 'INTERNAL_ERROR' || err.code === 'UNAVAILABLE') throw err;
      return answerSettled(
        await keep(record, {
          error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
        }),
      );
    }
  }

  return {
    /** Takes the challenge's lock and reads it afresh, so concurrent identical retries see one outcome. */
    advance(record: SignedRetryRecord): Promise<RunAnswer> {
      return deps.lock.run(
        record.id,
        async () => settleOnce((await deps.store.find(record.platformId, record.id)) ?? record),
      );
    },
    /** Settles what the provider has settled since, without anybody re-sending. */
    async reconcile(limit = 50): Promise<number> {
      let settled = 0;
      for (const record of await deps.store.findPending(limit)) {
        try {
          const answer = await this.advance(record);
          if (answer.state === 'SETTLED') settled += 1;
        } catch (err) {
          if (!(err instanceof AppError) || err.code === 'INTERNAL_ERROR') {
            deps.logger.error('reconciling an operation failed', { requestId: record.id, err });
          } else settled += 1;
        }
      }
      return settled;
    },
  };
}

export type OperationRunner = ReturnType<typeof createOperationRunner>;
