import { AppError, isErrorCode } from '../../../../lib/errors';
import { isId } from '../../../../lib/ids';
import { errorOf } from './operation-runner';
import type { ChallengeView, SignedRetry } from './signed-retry';
import type { Signature } from './signed-flow';
import type { SignedRetryStore } from './wallet-auth-stores';

export interface ExternalBegin {
  operation: string;
  targetId: string;
  body: unknown;
  signerAccountIds: string[];
  type?: string;
  parameters?: Record<string, unknown>;
}

export type ExternalCompletion =
  | { state: 'CLAIMED'; requestId: string }
  | { state: 'PROCESSING'; requestId: string }
  | { state: 'SETTLED'; requestId: string; result: Record<string, unknown> };

/** The signed retry offered to other services; they perform the operation and report it. */
export function createExternalSignedRetry(
  deps: { signedRetry: SignedRetry; store: SignedRetryStore; internalOperations: string[]; now: () => Date },
) {
  const checkOperation = (operation: string) => {
    if (!/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(operation) || deps.internalOperations.includes(operation)) {
      throw AppError.invalidInput('operation must be a dotted lowercase name not used by the auth service');
    }
  };

  return {
    async begin(platformId: string, input: ExternalBegin): Promise<ChallengeView> {
      checkOperation(input.operation);
      if (!input.targetId) throw AppError.invalidInput('targetId is required');
      if (!input.signerAccountIds.length || !input.signerAccountIds.every((id) => isId('InternalAccount', id))) {
        throw AppError.invalidInput('signerAccountIds must list InternalAccount ids');
      }
      return deps.signedRetry.begin({
        platformId,
        operation: input.operation,
        targetId: input.targetId,
        body: input.body,
        signer: { kind: 'session', accountIds: input.signerAccountIds },
        type: input.type,
        parameters: input.parameters,
        context: { accountId: input.signerAccountIds[0] },
      });
    },

    async complete(
      platformId: string,
      input: { operation: string; targetId: string; body: unknown; signature: Signature },
    ): Promise<ExternalCompletion> {
      checkOperation(input.operation);
      const { record, claimedNow } = await deps.signedRetry.complete({ platformId, ...input, external: true });
      const run = record.run!;
      if (claimedNow) return { state: 'CLAIMED', requestId: record.id };
      if (run.state === 'FAILED') throw errorOf(run.error!);
      if (run.state === 'PENDING') return { state: 'PROCESSING', requestId: record.id };
      return { state: 'SETTLED', requestId: record.id, result: run.result ?? {} };
    },

    async settle(
      platformId: string,
      input: { requestId: string; result?: Record<string, unknown>; errorCode?: string; errorMessage?: string },
    ): Promise<void> {
      const record = await deps.store.find(platformId, input.requestId);
      if (!record?.run?.external) throw AppError.notFound('Signed retry');
      const settledAt = deps.now().toISOString();
      if (input.errorCode !== undefined) {
        const code = isErrorCode(input.errorCode) ? input.errorCode : 'INTERNAL_ERROR';
        await deps.store.settle(record.id, record.run.id, {
          state: 'FAILED',
          error: { code, message: input.errorMessage ?? code },
          settledAt,
        });
        return;
      }
      await deps.store.settle(record.id, record.run.id, { state: 'SETTLED', result: input.result ?? {}, settledAt });
    },
  };
}

export type ExternalSignedRetry = ReturnType<typeof createExternalSignedRetry>;
