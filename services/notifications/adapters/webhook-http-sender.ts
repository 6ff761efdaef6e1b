import type { WebhookResponse, WebhookSender } from '../app/deliver-webhook';

/** Enough of a receiver's answer for the delivery log and the sandbox test; the rest is dropped. */
const RESPONSE_BODY_LIMIT = 4096;

async function readLimited(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_BODY_LIMIT) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const error = err as { name?: string; cause?: { code?: string; name?: string } };
  if (error?.name === 'TimeoutError' || error?.cause?.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  if (error?.cause?.code) return `connection failed: ${error.cause.code}`;
  return 'connection failed';
}

/** POSTs with fetch. Redirects are not followed: a 3xx is an answer that is not an acknowledgement. */
export function createWebhookHttpSender(fetchImpl: typeof fetch = fetch): WebhookSender {
  return {
    async post({ url, body, headers, timeoutMs }): Promise<WebhookResponse> {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return { error: 'the webhook endpoint is not a valid URL' };
      }
      if (target.protocol !== 'https:' && target.protocol !== 'http:') return { error: 'the webhook endpoint must use https or http' };
      try {
        const response = await fetchImpl(target, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
        return { statusCode: response.status, body: await readLimited(response).catch(() => '') };
      } catch (err) {
        return { error: describeFailure(err, timeoutMs) };
      }
    },
  };
}
