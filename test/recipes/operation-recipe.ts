import type { Operation } from '../../gateway/contract/operation';
import { createAuthThrottle } from '../../gateway/http/auth-throttle';
import { operationHandlerSets } from '../../gateway/gateway-app';
import type { OperationHandler, OperationHandlers } from '../../gateway/routes/operation-routes';
import { silentLogger } from '../../lib/log';
import { PEER_DEFINITIONS, type PeerClients } from '../../lib/runtime/peer-clients';

/**
 * The "add an operation" recipe (docs/contributing.md) as a check: every operation of the contract's
 * registry has a handler, an entry in the permission table, and a handler that calls an RPC a peer
 * client defines. `rpcs` are the RPCs each handler calls (`client.method`, see recordedWiring).
 */
export interface OperationWiring {
  operations: readonly Pick<Operation, 'operationId'>[];
  handled: ReadonlySet<string>;
  permissions: Readonly<Record<string, string>>;
  rpcs: ReadonlyMap<string, readonly string[]>;
  /** The RPCs the peer clients define, as `client.method`. */
  definedRpcs: ReadonlySet<string>;
  /** Operations answered by the gateway alone, each with its reason. */
  withoutRpc: Readonly<Record<string, string>>;
}

/** One line per missing step, naming the operation and the step. */
export function operationProblems(w: OperationWiring): string[] {
  const problems: string[] = [];
  for (const { operationId: id } of w.operations) {
    if (!w.handled.has(id)) problems.push(`${id}: no handler (routes.on('${id}', ...) in gateway/routes)`);
    if (!Object.hasOwn(w.permissions, id)) {
      problems.push(`${id}: no entry in OPERATION_PERMISSIONS (gateway/contract/operation-permissions.ts)`);
    }
    const called = w.rpcs.get(id) ?? [];
    if (Object.hasOwn(w.withoutRpc, id)) {
      if (called.length) problems.push(`${id}: listed as answered without an RPC, but calls ${called.join(', ')}`);
      continue;
    }
    if (w.handled.has(id) && !called.length) problems.push(`${id}: its handler calls no RPC`);
    for (const rpc of called.filter((r) => !w.definedRpcs.has(r))) {
      problems.push(`${id}: calls ${rpc}, which no peer client defines (lib/runtime/peer-clients.ts)`);
    }
  }
  return problems;
}

/** Every `client.method` the peer clients define (lib/runtime/peer-clients.ts, from the generated services). */
export function definedRpcs(): Set<string> {
  return new Set(
    Object.entries(PEER_DEFINITIONS).flatMap(([client, { definition }]) =>
      Object.keys(definition).map((method) => `${client}.${method}`)
    ),
  );
}

const idOf = (type: string) => `${type}:00000000-0000-4000-8000-000000000001`;

/**
 * A stand-in for a string: an id of the pattern's type (`Customer:<uuid>`), else `untyped` (an id of a guessed type).
 */
function pathValue(schema: { pattern?: string }, untyped = 'x'): string {
  const type = /^\^(\w+):/.exec(schema.pattern ?? '')?.[1];
  return type ? idOf(type) : untyped;
}

/** Every id type the contract's patterns name: the guesses for a parameter the contract leaves a plain string. */
function idTypesOf(operations: readonly Operation[]): string[] {
  return [...new Set([...JSON.stringify(operations).matchAll(/\^(\w+):\[0-9a-f/gi)].map((m) => m[1]))];
}

interface SchemaNode {
  type?: string;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  minimum?: number;
}

/** A value of the schema with its required members only: enough for a handler to read a body the contract passed. */
function sampleOf(schema: SchemaNode, untyped?: string): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sampleOf(schema.anyOf[0], untyped);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, sampleOf(schema.properties![name], untyped)]),
      );
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      return schema.format === 'date-time' ? '2025-01-01T00:00:00Z' : pathValue(schema, untyped);
    default:
      return undefined;
  }
}

class RpcCalled extends Error {}

/**
 * The gateway's handlers, built on peer clients that record the first RPC called and stop there, each
 * called once with a request the contract would let through (path parameters of the right form, the
 * body and query TypeBox builds from their schemas). What a handler calls first is enough to show it
 * reaches a service. Returns the operations handled and what each called.
 */
export async function recordedWiring(
  operations: readonly Operation[],
): Promise<{ handled: Set<string>; rpcs: Map<string, string[]>; stops: Map<string, string> }> {
  let calls: string[] = [];
  const recordingClient = (client: string) =>
    new Proxy({}, {
      get: (_target, method) => () => {
        calls.push(`${client}.${String(method)}`);
        throw new RpcCalled();
      },
    });
  const peers = new Proxy({}, { get: (_target, client) => recordingClient(String(client)) }) as PeerClients;
  const sets: Record<string, OperationHandlers> = operationHandlerSets(
    { peers, logger: silentLogger, servicesReady: async () => true },
    { forgetToken: () => undefined, throttle: createAuthThrottle() },
  );
  const handlersOf = new Map<string, OperationHandler[]>();
  for (const set of Object.values(sets)) for (const [id, chain] of set.byId) handlersOf.set(id, chain);
  const idTypes = idTypesOf(operations);
  const rpcs = new Map<string, string[]>();
  const stops = new Map<string, string>();
  for (const op of operations.filter((o) => handlersOf.has(o.operationId))) {
    let stop: string | undefined;
    // Parameters the contract leaves plain strings get an id of each type in turn, until one is read.
    for (const untyped of [undefined, ...idTypes.map(idOf)]) {
      calls = [];
      stop = await runChain(handlersOf.get(op.operationId)!, requestFor(op, untyped));
      if (calls.length) break;
    }
    rpcs.set(op.operationId, [...calls]);
    if (stop !== undefined) stops.set(op.operationId, stop);
  }
  return { handled: new Set(handlersOf.keys()), rpcs, stops };
}

/** Runs the handlers in order; answers what stopped the chain before an RPC (an error's message), if anything. */
async function runChain(
  chain: readonly OperationHandler[],
  { req, res }: ReturnType<typeof requestFor>,
): Promise<string | undefined> {
  for (const handler of chain) {
    let passedOn = false;
    let error: unknown;
    try {
      await (handler as (req: unknown, res: unknown, next: (err?: unknown) => void) => unknown)(req, res, (err) => {
        passedOn = true;
        error = err;
      });
    } catch (err) {
      error = err;
    }
    if (error instanceof RpcCalled) return undefined;
    if (error !== undefined) return error instanceof Error ? error.message : String(error);
    if (!passedOn) return 'answered without an RPC';
  }
  return 'every handler passed the request on';
}

function requestFor(op: Operation, untyped?: string) {
  const params = Object.fromEntries(
    Object.entries(op.pathParams.properties).map(([name, schema]) => [name, pathValue(schema as SchemaNode, untyped)]),
  );
  const headers: Record<string, string> = { 'idempotency-key': 'recipe-check', 'content-type': 'application/json' };
  const req = {
    params,
    query: op.query ? sampleOf(op.query as SchemaNode, untyped) : {},
    body: op.body ? sampleOf(op.body.schema as SchemaNode, untyped) : {},
    headers,
    method: op.method.toUpperCase(),
    path: op.path,
    url: op.path,
    originalUrl: op.path,
    ip: '127.0.0.1',
    socket: {},
    get: (name: string) => headers[name.toLowerCase()],
    header: (name: string) => headers[name.toLowerCase()],
    is: () => false,
  };
  const agent = { id: 'Agent:00000000-0000-4000-8000-000000000001', platformId: 'Platform:recipe', status: 'ACTIVE' };
  const res: Record<string, unknown> = {
    locals: { caller: { platformId: 'Platform:recipe', tokenId: 'Token:recipe' }, agent },
    headersSent: false,
  };
  for (const method of ['status', 'json', 'end', 'set', 'setHeader', 'send', 'type', 'cookie', 'redirect', 'vary']) {
    res[method] = () => res;
  }
  return { req, res };
}
