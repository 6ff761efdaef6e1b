import type { Request } from 'express';

/**
 * The client's address: the connection's, or with GATEWAY_TRUST_PROXY the one the trusted proxies
 * forwarded (Express's req.ip, which reads X-Forwarded-For only as far as the trusted hops go).
 */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
