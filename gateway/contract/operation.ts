import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { ErrorEnvelope } from './common-schemas';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Request headers some operations read; documented as header parameters. */
export const HEADERS = {
  idempotencyKey: {
    name: 'Idempotency-Key',
    description: 'Up to 255 printable ASCII characters (IETF draft-ietf-httpapi-idempotency-key-header). '
      + 'Repeating the request with the same key and body '
      + 'answers the first response (status and body) for 24 hours; the key with '
      + 'another body or operation answers 422, and while the first is in progress 409.',
  },
  walletSignature: {
    name: 'Service-Wallet-Signature',
    description: 'The signed-retry stamp over the challenge payload',
  },
  gridWalletSignature: {
    name: 'Grid-Wallet-Signature',
    description: "The same stamp under the reference's header name (either is accepted; both must then agree)",
  },
  requestId: { name: 'Request-Id', description: 'The requestId of the signed-retry challenge being answered' },
} as const;

export interface Operation {
  operationId: string;
  method: Method;
  /** OpenAPI path template, relative to the API version prefix unless `root`. */
  path: string;
  summary: string;
  tags: string[];
  /** Served at the server root (health, the document itself) rather than under the version prefix. */
  root?: boolean;
  /** Whether credentials are required (the default): the platform's Basic ones, or the agent's with `agentAuth`. */
  authenticated: boolean;
  /** Called by agent software with its Bearer access token (AgentAuth), not platform credentials. */
  agentAuth?: AgentAuth;
  pathParams: TObject;
  query?: TObject;
  headers?: (keyof typeof HEADERS)[];
  body?: { schema: TSchema; required: boolean; description?: string };
  /** Schema per HTTP status; `null` is an answer without a body (204). */
  responses: Record<number, TSchema | null>;
  /**
   * The use case validates alongside the body's shape errors (lib/field-error-list.ts), so a
   * client gets the gateway's and the service's field errors in one list.
   */
  validatedWithUseCase?: boolean;
  /** The request body's media type when it is not JSON (a file upload, an HTML form). */
  bodyMediaType?: string;
  /** Statuses whose body is not JSON, with their media type (an HTML page). */
  responseMediaTypes?: Record<number, string>;
}

/** What an agent operation asks of the agent's policy: a permission, and whether a paused agent may call it. */
export interface AgentAuth {
  permission?:
    | 'VIEW_TRANSACTIONS'
    | 'CREATE_TRANSFERS'
    | 'CREATE_QUOTES'
    | 'EXECUTE_QUOTES'
    | 'MANAGE_EXTERNAL_ACCOUNTS';
  allowPaused?: boolean;
}

/**
 * Statuses any authenticated operation may answer, whatever it does (403: the token lacks the operation's permission).
 */
const COMMON_ERRORS = [400, 401, 403, 429, 500, 503];
/**
 * What an Idempotency-Key adds (docs/idempotency.md): 409 while its first request runs, 422 when reused for another
 * request.
 */
const IDEMPOTENCY_ERRORS = [409, 422];
/**
 * What the HTTP server answers for any request it could not read in time (408) or whose headers are too large (431).
 */
const SERVER_ERRORS = [408, 431];

/** What a contract file writes for one operation; `operation()` completes it. */
export interface OperationSpec extends
  Pick<
    Operation,
    'operationId' | 'method' | 'path' | 'summary' | 'tags' | 'root' | 'headers' | 'validatedWithUseCase' | 'agentAuth'
  > {
  authenticated?: boolean;
  pathParams?: TProperties;
  query?: TProperties;
  body?: TSchema;
  /** An optional body: absent means `{}`. */
  optionalBody?: boolean;
  success: Record<number, TSchema | null>;
  /** Error statuses beyond the common ones (400, 401, 403, 429, 500, 503; 408 and 431). */
  errors?: number[];
  bodyMediaType?: string;
  responseMediaTypes?: Record<number, string>;
}

/** Where the stamp is read, the reference's header name is documented beside the interface's. */
function withGridSignatureName(headers: OperationSpec['headers']): OperationSpec['headers'] {
  if (!headers?.includes('walletSignature')) return headers;
  return headers.flatMap((h) => (h === 'walletSignature' ? ['walletSignature', 'gridWalletSignature'] as const : [h]));
}

export function operation(spec: OperationSpec): Operation {
  const authenticated = spec.authenticated ?? true;
  const keyed = spec.headers?.includes('idempotencyKey') ? IDEMPOTENCY_ERRORS : [];
  const errorStatuses = [
    ...new Set([...(authenticated ? COMMON_ERRORS : [500]), ...SERVER_ERRORS, ...keyed, ...(spec.errors ?? [])]),
  ].sort();
  const responses: Record<number, TSchema | null> = { ...spec.success };
  for (const status of errorStatuses) responses[status] = ErrorEnvelope(status);
  return {
    operationId: spec.operationId,
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    tags: spec.tags,
    root: spec.root,
    authenticated,
    headers: withGridSignatureName(spec.headers),
    validatedWithUseCase: spec.validatedWithUseCase,
    ...(spec.agentAuth ? { agentAuth: spec.agentAuth } : {}),
    pathParams: Type.Object(spec.pathParams ?? {}),
    query: spec.query ? Type.Object(spec.query) : undefined,
    body: spec.body ? { schema: spec.body, required: !spec.optionalBody } : undefined,
    responses,
    ...(spec.bodyMediaType ? { bodyMediaType: spec.bodyMediaType } : {}),
    ...(spec.responseMediaTypes ? { responseMediaTypes: spec.responseMediaTypes } : {}),
  };
}
