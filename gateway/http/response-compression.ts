import compression from 'compression';
import type { RequestHandler } from 'express';

/** Answers smaller than this go as they are: compressing them costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * gzip, deflate or brotli for an answer of at least COMPRESSION_THRESHOLD_BYTES when the client's
 * `Accept-Encoding` offers one (GET /exchange-rates without filters is hundreds of KB of JSON). A
 * client that sends no `Accept-Encoding` gets the bytes as they are. The `compression` package
 * leaves `Cache-Control: no-transform` answers alone and adds `Vary: Accept-Encoding`.
 */
export function responseCompression(): RequestHandler {
  return compression({ threshold: COMPRESSION_THRESHOLD_BYTES });
}
