import type { OperationRunner } from './operation-runner';
import {
  isFirstCall,
  type BeginInput,
  type ChallengeView,
  type CompleteInput,
  type RequestInput,
  type SignedRetry,
} from './signed-retry';

/** What a signed-retry endpoint answers: its challenge, PROCESSING, or its terminal result. */
export type Outcome =
  | { kind: 'challenge'; challenge: ChallengeView }
  | { kind: 'processing' }
  | { kind: 'result'; result: Record<string, unknown> };

export type Signature = CompleteInput['signature'];

export interface SignedFlowInput {
  request: RequestInput;
  signature: Signature | undefined;
  /** First call only: rule checks, then what to bind into the challenge. */
  prepare: () => Promise<Omit<BeginInput, keyof RequestInput>>;
  beforeClaim?: CompleteInput['beforeClaim'];
}

/** The two steps of every signed-retry endpoint of this service, over one SignedRetry and runner. */
export function createSignedFlow(deps: { signedRetry: SignedRetry; runner: OperationRunner }) {
  const finish = async (record: Parameters<OperationRunner['advance']>[0]): Promise<Outcome> => {
    const answer = await deps.runner.advance(record);
    return answer.state === 'PROCESSING' ? { kind: 'processing' } : { kind: 'result', result: answer.result };
  };
  return {
    async run(input: SignedFlowInput): Promise<Outcome> {
      if (isFirstCall(input.signature)) {
        const begin = await input.prepare();
        return { kind: 'challenge', challenge: await deps.signedRetry.begin({ ...input.request, ...begin }) };
      }
      const { record } = await deps.signedRetry.complete({
        ...input.request,
        signature: input.signature ?? {},
        beforeClaim: input.beforeClaim,
      });
      return finish(record);
    },
    /** Operations that need no signature; identical re-sends are correlated by body. */
    async runUnsigned(input: Parameters<SignedRetry['startUnsigned']>[0]): Promise<Outcome> {
      const { record } = await deps.signedRetry.startUnsigned(input);
      return finish(record);
    },
    /** The retry of a passkey challenge: `Request-Id` plus the assertion in the body. */
    async completeAssertion(request: RequestInput, requestId: string | undefined): Promise<Outcome> {
      const { record } = await deps.signedRetry.complete({ ...request, signature: { requestId } });
      return finish(record);
    },
  };
}

export type SignedFlow = ReturnType<typeof createSignedFlow>;
