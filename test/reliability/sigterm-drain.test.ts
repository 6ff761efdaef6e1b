import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killSystemProcess, startSystemProcess, type SystemProcess } from './system-process';

/**
 * SIGTERM under keep-alive load loses no answer: every request sent before the signal is answered,
 * a request whose body is still arriving is answered too, the drain tells clients `Connection:
 * close`, and only a request that never completes is cut, when the grace period ends. Every
 * customer the store holds afterwards is one a client was told about.
 * `SIGTERM_DRAIN_LONG=1` runs 64 clients and three stops instead of 16 and one.
 */
const LONG = process.env.SIGTERM_DRAIN_LONG === '1';
const CLIENTS = LONG ? 64 : 16;
const ROUNDS = LONG ? 3 : 1;
const GRACE_MS = 4_000;
const AUTH = `Basic ${Buffer.from('sandbox-token:sandbox-secret-0000000000').toString('base64')}`;

jest.setTimeout(300_000);

const dataDir = mkdtempSync(join(tmpdir(), 'grid-sigterm-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Outcome {
  id: string;
  sentAt: number;
  status?: number;
  connection?: string;
  error?: string;
}

function createCustomer(url: URL, agent: Agent, id: string): Promise<Outcome> {
  const body = JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: id, fullName: 'Drain Test' });
  return new Promise((resolve) => {
    const outcome: Outcome = { id, sentAt: 0 };
    const req = request(new URL('/2025-10-13/customers', url), {
      method: 'POST',
      agent,
      headers: { authorization: AUTH, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ...outcome, status: res.statusCode, connection: String(res.headers.connection) }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ ...outcome, error: err.code ?? err.message }));
    outcome.sentAt = Date.now();
    req.end(body);
  });
}

/** A client that keeps one keep-alive connection busy until a request fails or `stop` is set. */
async function client(url: URL, name: string, all: Outcome[], stop: { now: boolean }): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; !stop.now; i++) {
      const outcome = await createCustomer(url, agent, `${name}-${i}`);
      all.push(outcome);
      if (outcome.error) return;
    }
  } finally {
    agent.destroy();
  }
}

/** Sends a request's head now and its body when told: an in-flight request through the drain. */
function slowRequest(url: URL, id: string): { sendBody(): void; answer: Promise<string> } {
  const body = JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: id, fullName: 'Slow Body' });
  const socket: Socket = connect(Number(url.port), url.hostname);
  socket.write(
    `POST /2025-10-13/customers HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${AUTH}\r\n`
      + `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  let text = '';
  socket.on('data', (chunk) => {
    text += chunk;
  });
  const answer = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { sendBody: () => socket.write(body), answer };
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function customersStored(system: SystemProcess): Promise<number> {
  const res = await fetch(`${system.rootUrl}/2025-10-13/customers?limit=1`, { headers: { authorization: AUTH } });
  return ((await res.json()) as { totalCount: number }).totalCount;
}

const LOAD = `${CLIENTS} clients, ${ROUNDS} stop${ROUNDS > 1 ? 's' : ''}`;
test(`SIGTERM under keep-alive load (${LOAD}): every request sent before it is answered`, async () => {
  let answered = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const system = await startSystemProcess({ DATA_DIR: dataDir, GATEWAY_SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    const url = new URL(system.rootUrl);
    const outcomes: Outcome[] = [];
    const stop = { now: false };
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(url, `r${round}-c${i}`, outcomes, stop));
    await until(() => outcomes.filter((o) => o.status === 201).length >= CLIENTS * 5, 'the load to run');
    const slow = slowRequest(url, `r${round}-slow`);
    const stuck = slowRequest(url, `r${round}-stuck`); // its body never comes: cut when the grace period ends
    await new Promise((r) => setTimeout(r, 50)); // both heads are on their way before the signal

    const sigtermAt = Date.now();
    system.child.kill('SIGTERM');
    // The body of an in-flight request arrives after the idle linger (1 s): it is still answered.
    await new Promise((r) => setTimeout(r, 1_500));
    slow.sendBody();
    const exitCode = await system.exited;
    stop.now = true;
    await Promise.all(clients);

    expect(exitCode).toBe(0);
    const sentBefore = outcomes.filter((o) => o.sentAt < sigtermAt);
    const unanswered = sentBefore.filter((o) => o.status === undefined);
    expect(unanswered).toEqual([]);
    expect(sentBefore.every((o) => o.status === 201)).toBe(true);
    // The drain told the clients to go: answers after the signal close their connection.
    expect(outcomes.some((o) => o.status === 201 && o.connection === 'close')).toBe(true);
    expect(await slow.answer).toMatch(/^HTTP\/1\.1 201 [\s\S]*\r\nConnection: close\r\n/i);
    expect(await stuck.answer).toBe('');
    expect(system.logs).toContainEqual(
      expect.objectContaining({ msg: 'gateway drain: grace period over, connections cut', cut: 1 }),
    );
    answered += outcomes.filter((o) => o.status === 201).length + 1;
    const afterSignal = outcomes.filter((o) => o.sentAt >= sigtermAt);
    console.info(
      `SIGTERM round ${round + 1}: ${sentBefore.length} requests sent before the signal, all answered 201; `
        + `${
          afterSignal.filter((o) => o.status === 201).length
        } of ${afterSignal.length} sent after it answered (with Connection: close: `
        + `${outcomes.filter((o) => o.connection === 'close').length}), the others refused at connect (${
          [...new Set(afterSignal.filter((o) => o.error).map((o) => o.error))].join(', ') || 'none'
        }); `
        + `the slow body answered; 1 stuck request cut after ${GRACE_MS} ms`,
    );

    // Nothing committed without an answer: the store holds exactly the customers clients were told of.
    const after = await startSystemProcess({ DATA_DIR: dataDir });
    try {
      expect(await customersStored(after)).toBe(answered);
    } finally {
      await killSystemProcess(after, 'SIGTERM');
    }
  }
});
