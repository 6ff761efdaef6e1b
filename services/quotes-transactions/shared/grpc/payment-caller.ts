import { requirePlatform, type CallContext } from '../../../../lib/grpc/call-context';
import type { Caller } from '../app/payment-accounts';

export function callerOf(ctx: CallContext): Caller {
  return { platformId: requirePlatform(ctx), ...(ctx.correlationId ? { correlationId: ctx.correlationId } : {}) };
}

/** proto3 `optional string`: an empty string counts as absent. */
export function present(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
