import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A recorded eurofxref-daily.xml (reference date 2026-11-25; the ECB's format, 29 currencies). */
export const RECORDED_ECB_DOCUMENT = readFileSync(join(__dirname, 'eurofxref-daily.xml'), 'utf8');

/** The recorded document, published on another day. */
export const ecbDocumentOf = (day: string) => RECORDED_ECB_DOCUMENT.replace("time='2026-11-25'", `time='${day}'`);

/**
 * A local stand-in for the ECB's rates URL: answers what the test sets (a document, an HTTP
 * failure, or nothing at all) and counts the requests it received.
 */
export interface FakeRatesServer {
  url: string;
  requests: number;
  answer: { status: number; body: string } | 'hang';
  close(): Promise<void>;
}

export async function startFakeRatesServer(): Promise<FakeRatesServer> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const fake = { requests: 0, answer: { status: 200, body: RECORDED_ECB_DOCUMENT } } as FakeRatesServer;
  const server: Server = createServer((req, res) => {
    fake.requests += 1;
    if (fake.answer === 'hang') {
      hanging.add(res);
      return;
    }
    res.writeHead(fake.answer.status, { 'content-type': 'text/xml' }).end(fake.answer.body);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stats/eurofxref/eurofxref-daily.xml`;
  fake.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  };
  return fake;
}
