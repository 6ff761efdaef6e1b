import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { readConfig, setting, type ConfigOf } from '../../lib/config';
import { AppError } from '../../lib/errors';
import { toEnvelope } from './error-envelope';

/** The gateway's HTTP limits; every variable is optional. */
export const HTTP_LIMIT_SETTINGS = {
  /** A whole request (headers and body) must arrive within this; else 408. */
  GATEWAY_REQUEST_TIMEOUT_MS: setting.int(30_000, 1_000, 600_000),
  /** The headers of a request must arrive within this (at most the request timeout); else 408. */
  GATEWAY_HEADERS_TIMEOUT_MS: setting.int(10_000, 1_000, 600_000),
  /** An idle keep-alive connection is closed after this. */
  GATEWAY_KEEP_ALIVE_TIMEOUT_MS: setting.int(65_000, 1_000, 600_000),
  /** All request headers together; larger ones answer 431. */
  GATEWAY_MAX_HEADER_BYTES: setting.int(16_384, 1_024, 1_048_576),
  /** Open connections at once; further ones are closed as they arrive. */
  GATEWAY_MAX_CONNECTIONS: setting.int(1_024, 1, 1_000_000),
  /**
   * Open connections at once from one client address (the proxy's, behind one); further ones are closed as they arrive.
   */
  GATEWAY_MAX_CONNECTIONS_PER_ADDRESS: setting.int(256, 1, 1_000_000),
  /**
   * On SIGTERM: how long requests already received may take to be answered before the remaining connections are cut
   * (keep it below Kubernetes' terminationGracePeriodSeconds less the preStop pause).
   */
  GATEWAY_SHUTDOWN_GRACE_MS: setting.int(20_000, 0, 600_000),
};

export type HttpLimits = ConfigOf<typeof HTTP_LIMIT_SETTINGS>;

export function readHttpLimits(env: NodeJS.ProcessEnv): HttpLimits {
  const limits = readConfig(HTTP_LIMIT_SETTINGS, env);
  return {
    ...limits,
    GATEWAY_HEADERS_TIMEOUT_MS: Math.min(limits.GATEWAY_HEADERS_TIMEOUT_MS, limits.GATEWAY_REQUEST_TIMEOUT_MS),
  };
}

/** The options `http.createServer` takes for these limits; timeouts are checked every second. */
export function serverOptions(limits: HttpLimits) {
  return {
    requestTimeout: limits.GATEWAY_REQUEST_TIMEOUT_MS,
    headersTimeout: limits.GATEWAY_HEADERS_TIMEOUT_MS,
    keepAliveTimeout: limits.GATEWAY_KEEP_ALIVE_TIMEOUT_MS,
    maxHeaderSize: limits.GATEWAY_MAX_HEADER_BYTES,
    connectionsCheckingInterval: 1_000,
  };
}

/** What a request Node refused before any route saw it is told, by the parser's error code. */
function refusal(code: string | undefined): AppError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('REQUEST_HEADERS_TOO_LARGE', 'Request headers are larger than the server accepts');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new AppError('REQUEST_TIMEOUT', 'The request was not received in time');
    default:
      return AppError.invalidInput('Malformed HTTP request');
  }
}

function rawResponse(error: AppError): string {
  const envelope = toEnvelope(error);
  const body = JSON.stringify(envelope);
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[envelope.status]
    ?? 'Error';
  return `HTTP/1.1 ${envelope.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${
    Buffer.byteLength(body)
  }\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * Requests Node's HTTP parser refuses (oversized headers, malformed framing, timeouts) are answered
 * in the error envelope, where no response was started yet; the connection then closes.
 */
export function answerClientErrors(server: Server, limits: HttpLimits): void {
  server.maxConnections = limits.GATEWAY_MAX_CONNECTIONS;
  capConnectionsPerAddress(server, limits.GATEWAY_MAX_CONNECTIONS_PER_ADDRESS);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (err.code === 'ECONNRESET' || !socket.writable || started) {
      socket.destroy();
      return;
    }
    socket.end(rawResponse(refusal(err.code)));
  });
}

/**
 * One client address may hold at most `limit` connections at once: one greedy client cannot take
 * every slot of GATEWAY_MAX_CONNECTIONS. A connection over it is closed as it arrives, before any
 * request is read (as Node does beyond maxConnections).
 */
export function capConnectionsPerAddress(server: Server, limit: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= limit) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
