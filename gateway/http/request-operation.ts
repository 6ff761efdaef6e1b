import type { Request } from 'express';
import { findOperation } from '../contract/operation-registry';
import type { Operation } from '../contract/operation';

/** Each request's operation, found once (permission, validation, dispatch and metrics all ask). */
const found = new WeakMap<Request, Operation | null>();

/** The operation a request reaches (operation-registry.ts findOperation on its full path), or undefined. */
export function requestOperation(req: Request): Operation | undefined {
  let op = found.get(req);
  if (op === undefined) {
    op = findOperation(req.method, req.baseUrl + req.path) ?? null;
    found.set(req, op);
  }
  return op ?? undefined;
}
