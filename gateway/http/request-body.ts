import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../../lib/errors';

const MAX_BODY = '1mb';

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** JSON bodies only: a body of another type is refused before parsing. */
export function jsonBody() {
  const parse = express.json({ limit: MAX_BODY, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    if (!req.is('application/json') && !req.is('application/*+json')) {
      return next(AppError.invalidInput(`Content-Type must be application/json, got "${req.headers['content-type'] ?? 'none'}"`));
    }
    parse(req, res, next);
  };
}

/** body-parser's errors carry a `type`; each becomes a 400 INVALID_INPUT that says what was wrong. */
export function bodyParserError(err: unknown): AppError | undefined {
  const type = (err as { type?: string } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return AppError.invalidInput(`Malformed JSON body: ${(err as Error).message}`);
    case 'entity.too.large':
      return AppError.invalidInput(`Request body exceeds ${MAX_BODY}`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return AppError.invalidInput('Request body must be UTF-8 encoded JSON');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return AppError.invalidInput('Request body could not be read');
    default:
      return undefined;
  }
}
