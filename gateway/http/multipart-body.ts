import busboy from 'busboy';
import type { Request } from 'express';
import { AppError } from '../../lib/errors';

export interface MultipartLimits {
  /** The one file member's name. */
  fileField: string;
  maxFileBytes: number;
  /** Text members, each at most maxFieldBytes. */
  maxFields: number;
  maxFieldBytes: number;
  /** Media types the file may be declared as (its content is checked by the service). */
  words: string;
}

export interface MultipartBody {
  fields: Record<string, string>;
  file?: { fileName: string; mimeType: string; content: Buffer };
}

/**
 * Reads a multipart/form-data body with busboy, within limits: a file over its limit, more than
 * one file, too many or too large members, a body of another type and a truncated body are each
 * 400 INVALID_INPUT. Nothing is kept on disk: the file stays in memory (it is at most maxFileBytes).
 */
export function readMultipart(req: Request, limits: MultipartLimits): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    if (!req.is('multipart/form-data')) {
      reject(
        AppError.invalidInput(
          `Content-Type must be multipart/form-data, got "${req.headers['content-type'] ?? 'none'}"`,
        ),
      );
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // busboy reports 'limit' once a file reaches fileSize: one byte more, so maxFileBytes itself is accepted.
        limits: {
          fileSize: limits.maxFileBytes + 1,
          files: 1,
          fields: limits.maxFields,
          fieldSize: limits.maxFieldBytes,
          parts: limits.maxFields + 1,
        },
      });
    } catch {
      reject(AppError.invalidInput('Malformed multipart/form-data body (boundary missing)'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: MultipartBody['file'];
    let failure: AppError | undefined;
    const fail = (error: AppError) => {
      failure ??= error;
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) {
        fail(
          AppError.invalidInput('Invalid document', [{
            field: name,
            message: `must be at most ${limits.maxFieldBytes} bytes`,
          }]),
        );
      } else fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A truncated body ends the file stream with an error; the parser reports it too.
      stream.on('error', () => fail(AppError.invalidInput('Malformed or truncated multipart/form-data body')));
      stream.on(
        'limit',
        () =>
          fail(AppError.invalidInput('File too large', [{ field: name, message: `must be at most ${limits.words}` }])),
      );
      stream.on('close', () => {
        if (name !== limits.fileField) {
          fail(
            AppError.invalidInput('Unexpected file', [{ field: name, message: `files go in "${limits.fileField}"` }]),
          );
        } else file = { fileName: info.filename ?? '', mimeType: info.mimeType, content: Buffer.concat(chunks) };
      });
    });
    parser.on(
      'filesLimit',
      () =>
        fail(
          AppError.invalidInput('Only one file may be sent', [{
            field: limits.fileField,
            message: 'only one file may be sent',
          }]),
        ),
    );
    parser.on('fieldsLimit', () => fail(AppError.invalidInput(`At most ${limits.maxFields} form members may be sent`)));
    parser.on(
      'partsLimit',
      () => fail(AppError.invalidInput(`At most ${limits.maxFields + 1} form parts may be sent`)),
    );
    parser.on('error', () => reject(AppError.invalidInput('Malformed or truncated multipart/form-data body')));
    parser.on('close', () => (failure ? reject(failure) : resolve({ fields, ...(file ? { file } : {}) })));
    req.on('aborted', () => reject(AppError.invalidInput('The request body was not received completely')));
    req.pipe(parser);
  });
}
