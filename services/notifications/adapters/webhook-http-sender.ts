import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  endpointUrlProblem,
  FORBIDDEN_ADDRESS_CODE,
  guardedLookup,
  type EndpointRules,
  type LookupAll,
} from '../../../lib/net/endpoint-safety';
import { isTrustedEndpoint } from '../../../lib/net/trusted-webhook-endpoints';
import type { WebhookResponse, WebhookSender } from '../app/deliver-webhook';

/** Enough of a receiver's answer for the approval answer of an incoming payment; the rest is dropped. */
const RESPONSE_BODY_LIMIT = 4096;

function readLimited(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BODY_LIMIT) {
        response.destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('close', done);
  });
}

function describeFailure(err: NodeJS.ErrnoException): string {
  if (err.code === FORBIDDEN_ADDRESS_CODE) {
    return 'refused: the endpoint resolves to a loopback, private or link-local address';
  }
  return err.code ? `connection failed: ${err.code}` : 'connection failed';
}

/**
 * POSTs with node:http(s). Outside the sandbox the URL must be https and every connection resolves
 * its host through a guarded lookup that refuses loopback, private, link-local and metadata
 * addresses, so a name cannot be rebound to one after it was configured; an operator-approved origin
 * (WEBHOOK_TRUSTED_ENDPOINTS) is exempt and trusts its CA too. Redirects are not
 * followed: a 3xx is an answer that is not an acknowledgement.
 */
export function createWebhookHttpSender(
  rules: EndpointRules & { trustedCa?: string[] } = { allowLocal: true },
  resolveAll?: LookupAll,
): WebhookSender {
  const guarded: LookupFunction | undefined = rules.allowLocal ? undefined : guardedLookup(resolveAll);
  return {
    post({ url, body, headers, timeoutMs }): Promise<WebhookResponse> {
      const problem = endpointUrlProblem(url, rules);
      if (problem) return Promise.resolve({ error: `refused: the webhook endpoint ${problem}` });
      const target = new URL(url);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      // An operator-approved endpoint: any address, and its CA (WEBHOOK_TRUSTED_CA_FILE) besides the public ones.
      const trusted = isTrustedEndpoint(url, rules.trusted);
      const lookup = trusted ? undefined : guarded;
      const ca = trusted && rules.trustedCa ? { ca: rules.trustedCa } : {};
      return new Promise((resolve) => {
        let settled = false;
        const settle = (result: WebhookResponse) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(result);
        };
        const req = send(target, {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          agent: false,
          ...(lookup ? { lookup } : {}),
          ...ca,
        }, (response) => {
          void readLimited(response).then((text) => settle({ statusCode: response.statusCode ?? 0, body: text }));
        });
        const timer = setTimeout(() => {
          settle({ error: `no answer within ${timeoutMs} ms` });
          req.destroy();
        }, timeoutMs);
        req.on('error', (err: NodeJS.ErrnoException) => settle({ error: describeFailure(err) }));
        req.end(body);
      });
    },
  };
}
