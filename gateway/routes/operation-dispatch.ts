import { Router, type NextFunction, type Request, type Response } from 'express';
import { OPERATIONS } from '../contract/operation-registry';
import type { Operation } from '../contract/operation';
import { requestOperation } from '../http/request-operation';

/** A route path in one spelling (`/a/:id` and `/a/{id}` alike), as Express matches it (case-insensitive). */
const shapeOf = (path: string) => path.replace(/:[^/]+/g, '{}').replace(/\{[^}/]+\}/g, '{}').toLowerCase();

/** The area whose own route declares the operation's path and method, if one does. */
function areaDeclaring(op: Operation, areas: Router[]): Router | undefined {
  const shape = shapeOf(op.path);
  return areas.find((area) => area.stack.some((layer) => {
    const route = layer.route as { path?: unknown; methods?: Record<string, boolean> } | undefined;
    return typeof route?.path === 'string' && shapeOf(route.path) === shape && route.methods?.[op.method] === true;
  }));
}

/**
 * The resource areas' routers behind one handler that sends each request straight to the area
 * serving its operation (found once per request by the contract), instead of Express testing it
 * against every route of every area before it. What the area does not answer (a route that passes
 * the request on) goes through all the areas in order, exactly as when they are mounted one after
 * another; so does a request whose operation no area declares.
 */
export function dispatchByOperation(areas: Router[]) {
  const inOrder = Router();
  for (const area of areas) inOrder.use(area);
  const areaOf = new Map<Operation, Router>();
  for (const op of OPERATIONS) {
    const area = areaDeclaring(op, areas);
    if (area) areaOf.set(op, area);
  }
  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    const op = requestOperation(req);
    const area = op && areaOf.get(op);
    if (!area) return inOrder(req, res, next);
    area(req, res, (err?: unknown) => {
      if (err === 'router') return next();
      if (err !== undefined && err !== 'route') return next(err);
      inOrder(req, res, next);
    });
  };
  // Every route, where code that walks a router's layers (the OpenAPI document's test) looks for them.
  return Object.assign(dispatch, { stack: inOrder.stack });
}
