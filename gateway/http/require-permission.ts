import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../lib/errors';
import { methodsServedAt } from '../contract/operation-registry';
import { permissionRefusal, requiredPermission } from '../contract/operation-permissions';
import { callerOf } from './call-context';
import { requestOperation } from './request-operation';

/**
 * After authentication, before any route: the caller must hold the permission its operation requires
 * (the one table in contract/operation-permissions.ts), else 403 FORBIDDEN. Fails closed: a request
 * no operation serves never reaches a route (405 with Allow where the path is served with other
 * methods, else 404), an operation without an entry is refused, an agent's token reaches only AGENT
 * operations and an API token never does. HEAD is authorized as the GET of its path (findOperation).
 */
export function requirePermission() {
  return (req: Request, res: Response, next: NextFunction) => {
    const op = requestOperation(req);
    if (!op) return next(unserved(req, res, req.baseUrl + req.path));
    const required = requiredPermission(op);
    if (required === 'PUBLIC') return next();
    const caller = callerOf(res);
    if (!caller) return next(new AppError('UNAUTHORIZED', 'Credentials are required'));
    const isAgent = res.locals.agent !== undefined;
    if ((required === 'AGENT') !== isAgent) {
      return next(
        new AppError('FORBIDDEN', `${op.operationId} is not available to this credential`, {
          operationId: op.operationId,
        }),
      );
    }
    next(permissionRefusal(op, caller.permissions ?? []));
  };
}

/** 405 with Allow where the path is served with other methods, else 404. */
function unserved(req: Request, res: Response, path: string): AppError {
  const allowed = methodsServedAt(path);
  if (!allowed.length) return new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`);
  res.set('Allow', allowed.join(', '));
  return new AppError('METHOD_NOT_ALLOWED', `${req.method} is not served at ${req.path}; use ${allowed.join(', ')}`, {
    allowedMethods: allowed,
  });
}

/**
 * For the routes served without credentials outside the version prefix: a method no operation serves never reaches
 * them.
 */
export function refuseUnservedMethods() {
  return (req: Request, res: Response, next: NextFunction) => {
    next(requestOperation(req) ? undefined : unserved(req, res, req.baseUrl + req.path));
  };
}
