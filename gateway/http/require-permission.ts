import type { NextFunction, Request, Response } from 'express';
import { findOperation } from '../contract/operation-registry';
import { permissionRefusal } from '../contract/operation-permissions';
import { callerOf } from './call-context';

/**
 * After Basic auth: the API token must hold the permission its operation requires (the one table in
 * contract/operation-permissions.ts), else 403 FORBIDDEN. Requests no operation serves go on to the 404.
 */
export function requirePermission() {
  return (req: Request, res: Response, next: NextFunction) => {
    const op = findOperation(req.method, req.baseUrl + req.path);
    const caller = callerOf(res);
    if (!op || !caller) return next();
    next(permissionRefusal(op, caller.permissions ?? []));
  };
}
