import { Agent, request } from 'node:http';

/** A minimal JSON client over one keep-alive agent, so the load loop measures the server, not TCP setup. */
export function createKeepAliveClient(base: string, headers: Record<string, string> = {}, maxSockets = 64) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const url = new URL(base);
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request({
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path: `${url.pathname.replace(/\/$/, '')}${path}`,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = text;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
}
