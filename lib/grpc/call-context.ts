import { Metadata } from '@grpc/grpc-js';
import type { FieldError } from '../errors';

/**
 * Who is calling and on whose behalf. The gateway sets the platform after HTTP auth; services
 * forward it on their own calls. Metadata keys are part of the internal contract.
 */
export interface CallContext {
  /** The platform whose data the call may see; absent for platform-less calls (auth, bootstrap). */
  platformId?: string;
  /** Correlation id of the originating REST request (response header X-Correlation-Id). */
  correlationId?: string;
  /**
   * Shape errors the gateway found in the REST body (the members are left out of the request),
   * for the use case to report with its own in one list. Sent only on operations whose use case
   * validates alongside them (see validateAlongside).
   */
  fieldErrors?: FieldError[];
}

export const METADATA = {
  authorization: 'authorization',
  platformId: 'x-platform-id',
  correlationId: 'x-correlation-id',
  fieldErrors: 'x-field-errors',
} as const;

function fieldErrorsOf(raw: string | undefined): FieldError[] | undefined {
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((e): e is FieldError => typeof e?.field === 'string') : undefined;
  } catch {
    return undefined;
  }
}

export function contextFromMetadata(metadata: Metadata): CallContext {
  const first = (key: string) => {
    const value = metadata.get(key)[0];
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  };
  return {
    platformId: first(METADATA.platformId),
    correlationId: first(METADATA.correlationId),
    fieldErrors: fieldErrorsOf(first(METADATA.fieldErrors)),
  };
}

export function contextToMetadata(ctx: CallContext, metadata = new Metadata()): Metadata {
  for (const [key, value] of Object.entries(contextToHeaders(ctx))) metadata.set(key, value);
  return metadata;
}

/** The context as plain header values (the thread transport carries them without a Metadata object). */
export function contextToHeaders(ctx: CallContext, headers: Record<string, string> = {}): Record<string, string> {
  if (ctx.platformId) headers[METADATA.platformId] = ctx.platformId;
  if (ctx.correlationId) headers[METADATA.correlationId] = ctx.correlationId;
  if (ctx.fieldErrors?.length) headers[METADATA.fieldErrors] = JSON.stringify(ctx.fieldErrors);
  return headers;
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
