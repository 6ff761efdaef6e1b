import { Server, ServerCredentials } from '@grpc/grpc-js';
import { WebhookServiceService } from '../../gen/notifications/v1/webhooks';
import { createServiceClient } from './grpc-client';

/** Two replicas of one service; each answers with its own name. */
async function replica(name: string): Promise<{ server: Server; port: number }> {
  const server = new Server();
  server.addService(WebhookServiceService, {
    getWebhookPublicKey: (_call: unknown, callback: (err: null, response: object) => void) =>
      callback(null, {
        algorithm: 'ECDSA-P256-SHA256',
        signatureHeader: 'X-Grid-Signature',
        publicKeyPem: name,
        publicKeyHex: '',
      }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p)))
  );
  return { server, port };
}

test('calls are spread over every address the target resolves to (client-side round robin)', async () => {
  const [a, b] = await Promise.all([replica('a'), replica('b')]);
  // A headless Service's name resolves to one address per pod; the ipv4 scheme gives the same list without DNS.
  const client = createServiceClient(WebhookServiceService, `ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`, {
    internalToken: 't',
  });
  try {
    await client.waitForReady(10_000);
    const answered: string[] = [];
    for (let i = 0; i < 20; i++) answered.push((await client.getWebhookPublicKey({})).publicKeyPem);
    const counts = { a: answered.filter((n) => n === 'a').length, b: answered.filter((n) => n === 'b').length };
    expect(counts.a).toBeGreaterThanOrEqual(5);
    expect(counts.b).toBeGreaterThanOrEqual(5);

    // A replica that goes away takes no more calls; the other answers them all.
    a.server.forceShutdown();
    const after: string[] = [];
    for (let i = 0; i < 10; i++) {
      after.push(await client.getWebhookPublicKey({}).then((r) => r.publicKeyPem, () => 'failed'));
    }
    expect(after.slice(-5)).toEqual(['b', 'b', 'b', 'b', 'b']);
  } finally {
    client.close();
    a.server.forceShutdown();
    b.server.forceShutdown();
  }
});
