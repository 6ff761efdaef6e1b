import express, { type NextFunction, type Request, type Response } from 'express';
import { restToMessage, schemaMembers } from '../../lib/contract/rest-message';
import { requestOperation } from './request-operation';
import { AppError } from '../../lib/errors';
import { jsonDepth, MAX_JSON_DEPTH } from './json-depth';

export const MAX_BODY = '1mb';

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Requests whose body is not JSON, with their Content-Type: left unread for the route to accept or refuse. */
const otherBodies = new WeakMap<Request, string>();

/**
 * Parses JSON bodies (a parsed body nested deeper than MAX_JSON_DEPTH is refused before any route
 * sees it; bodies may be sent compressed with gzip, deflate or br). A body of another type is left
 * unread: each route decides what it accepts, so a route that does not exist still answers 404.
 */
export function jsonBody() {
  const parse = express.json({ limit: MAX_BODY, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    if (!req.is('application/json') && !req.is('application/*+json')) {
      otherBodies.set(req, req.headers['content-type'] ?? 'none');
      return next();
    }
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (jsonDepth(req.body) > MAX_JSON_DEPTH) {
        return next(AppError.invalidInput(`Request body nests deeper than ${MAX_JSON_DEPTH} levels`));
      }
      next();
    });
  };
}

/** The JSON body of a route that takes JSON (undefined when none was sent); another content type is refused. */
export function jsonBodyOf(req: Request): unknown {
  const type = otherBodies.get(req);
  if (type !== undefined) throw AppError.invalidInput(`Content-Type must be application/json, got "${type}"`);
  return req.body;
}

/** The member names of each operation's body schema, found once. */
const membersOfSchema = new WeakMap<object, ReadonlySet<string>>();
function bodyMembers(schema: object | undefined): ReadonlySet<string> {
  if (!schema) return new Set();
  let members = membersOfSchema.get(schema);
  if (!members) membersOfSchema.set(schema, members = schemaMembers(schema));
  return members;
}

/**
 * The JSON body read into the request message `typeName` (its fields carry the REST names) by
 * lib/contract/rest-message.ts; the contract has checked the body's shape. Only the members the
 * operation's body schema names are read; an optional body left out reads as `{}`.
 */
export function bodyMessage<T>(req: Request, typeName: string): T {
  const operationBody = requestOperation(req)?.body;
  const body = jsonBodyOf(req) ?? (operationBody?.required === false ? {} : undefined);
  if (body === undefined) throw AppError.invalidInput('A JSON request body is required');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw AppError.invalidInput('Request body must be a JSON object');
  }
  return restToMessage<T>(typeName, body as Record<string, unknown>, bodyMembers(operationBody?.schema));
}

/**
 * body-parser's errors: those it types say what was wrong; the rest are the failures it marks as
 * the client's (4xx, `expose`), such as a compressed body that does not decompress. Each becomes a
 * 400 INVALID_INPUT that says what was wrong.
 */
export function bodyParserError(err: unknown): AppError | undefined {
  const e = (err ?? {}) as { type?: string; status?: number; expose?: boolean; code?: string };
  switch (e.type) {
    case 'entity.parse.failed':
      return AppError.invalidInput(`Malformed JSON body: ${(err as Error).message}`);
    case 'entity.too.large':
      return AppError.invalidInput(`Request body exceeds ${MAX_BODY}`);
    case 'encoding.unsupported':
      return AppError.invalidInput('Content-Encoding must be gzip, deflate, br or identity');
    case 'charset.unsupported':
      return AppError.invalidInput('Request body must be UTF-8 encoded JSON');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return AppError.invalidInput('Request body could not be read');
  }
  if (e.expose && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    const compressed = typeof e.code === 'string' && e.code.startsWith('Z_');
    return AppError.invalidInput(
      compressed ? 'Request body does not decompress with its Content-Encoding' : 'Request body could not be read',
    );
  }
  return undefined;
}
