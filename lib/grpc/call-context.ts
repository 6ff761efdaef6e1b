import { Metadata } from '@grpc/grpc-js';

/**
 * Who is calling and on whose behalf. The gateway sets the platform after HTTP auth; services
 * forward it on their own calls. Metadata keys are part of the internal contract.
 */
export interface CallContext {
  /** The platform whose data the call may see; absent for platform-less calls (auth, bootstrap). */
  platformId?: string;
  /** Correlation id of the originating REST request (response header X-Correlation-Id). */
  correlationId?: string;
}

export const METADATA = {
  authorization: 'authorization',
  platformId: 'x-platform-id',
  correlationId: 'x-correlation-id',
} as const;

export function contextFromMetadata(metadata: Metadata): CallContext {
  const first = (key: string) => {
    const value = metadata.get(key)[0];
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  };
  return { platformId: first(METADATA.platformId), correlationId: first(METADATA.correlationId) };
}

export function contextToMetadata(ctx: CallContext, metadata = new Metadata()): Metadata {
  if (ctx.platformId) metadata.set(METADATA.platformId, ctx.platformId);
  if (ctx.correlationId) metadata.set(METADATA.correlationId, ctx.correlationId);
  return metadata;
}

/** The platform a call is scoped to; services raise UNAUTHORIZED when the gateway did not set it. */
export function requirePlatform(ctx: CallContext): string {
  if (!ctx.platformId) {
    // Imported lazily to keep this module free of cycles with errors.ts consumers.
    const { AppError } = require('../errors') as typeof import('../errors');
    throw new AppError('UNAUTHORIZED', 'No platform on the call');
  }
  return ctx.platformId;
}
