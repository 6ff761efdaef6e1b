import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Operation } from '../contract/operation';
import { OPERATIONS, servedPaths } from '../contract/operation-registry';
import { requestOperation } from '../http/request-operation';

const BY_ID = new Map(OPERATIONS.map((op) => [op.operationId, op]));

/** A handler of an operation: its path parameters (`{name}` in the contract) are strings. */
export type OperationHandler = RequestHandler<Record<string, string>>;

/**
 * Handlers by the operationId of the contract operation each serves; the path and method come from
 * the contract (operation-registry.ts), never from the handler's module.
 */
export class OperationHandlers {
  readonly byId = new Map<string, OperationHandler[]>();

  /** Serves the operation with these handlers (middleware first). An id the contract lacks, or given twice, throws. */
  on(operationId: string, ...handlers: OperationHandler[]): void {
    if (!BY_ID.has(operationId)) throw new Error(`${operationId} is no operation of the contract`);
    if (this.byId.has(operationId)) throw new Error(`${operationId} has two handlers`);
    this.byId.set(operationId, handlers);
  }

  /** All the sets' handlers in one (each operation still once). */
  static merge(sets: readonly OperationHandlers[]): OperationHandlers {
    const merged = new OperationHandlers();
    for (const set of sets) for (const [operationId, handlers] of set.byId) merged.on(operationId, ...handlers);
    return merged;
  }
}

/** Fails unless the sets serve every operation of the contract exactly once. */
export function requireEveryOperationServed(sets: readonly OperationHandlers[]): void {
  const served = OperationHandlers.merge(sets);
  const unserved = OPERATIONS.filter((op) => !served.byId.has(op.operationId)).map((op) => op.operationId);
  if (unserved.length) throw new Error(`operations without a handler: ${unserved.join(', ')}`);
}

/** An OpenAPI path template as an Express route path: `/a/{id}` → `/a/:id`. */
const expressPath = (path: string) => path.replace(/\{([^}/]+)\}/g, ':$1');

/**
 * The handlers' operations as Express routes, each at the paths and method the contract serves it
 * at (below `mount`, where the routes are mounted). A request goes straight to the route of its
 * operation (found once per request by the contract); a request of an operation not among these,
 * or one its handler passes on, goes on past them.
 */
export function operationRoutes(handlers: OperationHandlers, mount = '') {
  const all = Router();
  const routeOf = new Map<Operation, Router>();
  for (const [operationId, chain] of handlers.byId) {
    const op = BY_ID.get(operationId)!;
    const route = Router();
    const paths = servedPaths(op).filter((path) => path.startsWith(`${mount}/`)).map((path) =>
      path.slice(mount.length)
    );
    for (const path of paths) route[op.method](expressPath(path), ...(chain as RequestHandler[]));
    routeOf.set(op, route);
    all.use(route);
  }
  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    const op = requestOperation(req);
    const route = op && routeOf.get(op);
    if (!route) return next();
    route(req, res, (err?: unknown) => next(err === 'route' || err === 'router' ? undefined : err));
  };
  // Every route, where code that walks a router's layers (the OpenAPI document's test) looks for them.
  return Object.assign(dispatch, { stack: all.stack });
}
