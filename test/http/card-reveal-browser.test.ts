import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createLogger } from '../../lib/log';
import { revealSigningKey, signRevealToken } from '../../services/quotes-transactions/cards/app/reveal-token';
import { launchChromium } from '../fixtures/headless-chromium';
import { basicAuthHeader, startTestSystem, type TestSystem } from '../system-harness';
import { approvedCardholder, cardWhen, usdAccountOf } from './card-fixtures';
import { chooseOutcome, createCustomer } from './kyc-fixtures';
import { expectError } from './payments-fixtures';

jest.setTimeout(15 * 60_000); // a fresh machine installs Chromium first

const CARDS_DATA_KEY = randomBytes(32).toString('hex');
let sys: TestSystem;
let browser: Browser;
let embedder: Server;
/**
 * The embedding page, served on one port: http://localhost:<port> is the allowed origin, http://127.0.0.1:<port>
 * another.
 */
let allowedOrigin: string;
let otherOrigin: string;
const logLines: string[] = [];
let holder: { customerId: string; usdAccountId: string };

beforeAll(async () => {
  embedder = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<!doctype html><title>platform</title><iframe id="card" src="${src.replace(/"/g, '&quot;')}"></iframe>`,
    );
  });
  await new Promise<void>((done) => embedder.listen(0, '127.0.0.1', done));
  const port = (embedder.address() as AddressInfo).port;
  [allowedOrigin, otherOrigin] = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  sys = await startTestSystem({
    env: { ACCOUNTS_KYC_STEP_MS: '30', CARDS_DATA_KEY, CARDS_REVEAL_FRAME_ANCESTORS: allowedOrigin },
    logger: createLogger({ level: 'debug', write: (line) => logLines.push(line) }),
  });
  holder = await approvedCardholder(sys);
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await sys.stop();
  await new Promise((done) => embedder.close(done));
});

let seq = 0;
async function activeCard(cardholderId = holder.customerId, fundingSource = holder.usdAccountId) {
  const res = await sys.api('/cards', {
    method: 'POST',
    json: {
      cardholderId,
      platformCardId: `reveal-${process.pid}-${seq++}`,
      form: 'VIRTUAL',
      fundingSources: [fundingSource],
    },
  });
  expect(res.status).toBe(201);
  return cardWhen(sys, res.body.id, (c) => c.state === 'ACTIVE');
}
/** A reveal's URL on this test's gateway (CARDS_REVEAL_BASE_URL is not known before the gateway binds). */
async function reveal(cardId: string) {
  const res = await sys.api(`/cards/${cardId}/reveal`, { method: 'POST' });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return { url: `${sys.rootUrl}${new URL(res.body.panEmbedUrl).pathname}`, body: res.body };
}
const textOf = async (page: Page, selector: string) => (await page.textContent(selector))?.trim();

test('in a real browser the URL shows PAN, CVV and expiry once, under a strict CSP; then it refuses', async () => {
  const card = await activeCard();
  const { url, body } = await reveal(card.id);
  expect(Object.keys(body).sort()).toEqual(['expiresAt', 'panEmbedUrl']);
  const ttl = Date.parse(body.expiresAt) - Date.now();
  expect(ttl).toBeGreaterThan(0);
  expect(ttl).toBeLessThanOrEqual(120_000);

  const page = await browser.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  const shown = await page.goto(url);
  expect(shown!.status()).toBe(200);
  const headers = shown!.headers();
  expect(headers['content-security-policy']).toMatch(
    new RegExp(
      "^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors http://localhost:\\d+$",
    ),
  );
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['referrer-policy']).toBe('no-referrer');
  const pan = (await textOf(page, '#pan'))!;
  expect(pan).toMatch(/^(\d{4} ){3}\d{4}$/);
  expect(pan.replace(/ /g, '').slice(-4)).toBe(card.last4);
  expect(await textOf(page, '#expiry')).toBe(`${String(card.expMonth).padStart(2, '0')}/${card.expYear}`);
  expect(await textOf(page, '#cvv')).toMatch(/^\d{3}$/);
  // The page's own style is allowed by its hash: the CSP refuses nothing the page does.
  expect(consoleErrors).toEqual([]);

  const again = await page.reload();
  expect(again!.status()).toBe(404);
  expect(await textOf(page, 'h1')).toBe('Card details unavailable');
  expect(await page.$('#pan')).toBeNull();
  expect(again!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");

  // The card data is in no API answer, and in no log line; the reveal and its opening are audited with the actor.
  expect(JSON.stringify((await sys.api(`/cards/${card.id}`)).body)).not.toContain(pan.replace(/ /g, ''));
  const log = logLines.join('\n');
  expect(log).not.toContain(pan.replace(/ /g, ''));
  expect(log).not.toContain(new URL(url).pathname.split('/').pop());
  const audited = logLines.filter((l) => l.includes(card.id) && l.includes(`apiToken.clientId:${sys.sandbox.tokenId}`));
  expect(audited.some((l) => l.includes('card reveal minted'))).toBe(true);
  expect(audited.some((l) => l.includes('card reveal opened'))).toBe(true);
});

test('a tampered URL refuses (and leaves the real one usable); an expired URL refuses', async () => {
  const card = await activeCard();
  const { url } = await reveal(card.id);
  const [head, payload, signature] = new URL(url).pathname.split('/').pop()!.split('.');
  const page = await browser.newPage();
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 })).toString('base64url');
  for (
    const forged of [
      `${head}.${longer}.${signature}`,
      `${head}.${payload}.${signature.split('').reverse().join('')}`,
      `${head}.${payload}.`,
    ]
  ) {
    expect((await page.goto(`${sys.rootUrl}/card-reveal/${forged}`))!.status()).toBe(404);
  }
  expect((await page.goto(url))!.status()).toBe(200);
  expect(await textOf(page, '#cvv')).toMatch(/^\d{3}$/);

  // Expired: the same reveal's claims signed with the system's key, with an expiry already past.
  const fresh = await reveal(card.id);
  const sub =
    JSON.parse(Buffer.from(new URL(fresh.url).pathname.split('/').pop()!.split('.')[1], 'base64url').toString()).sub;
  const expired = await signRevealToken(
    revealSigningKey(Buffer.from(CARDS_DATA_KEY, 'hex')),
    sub,
    new Date(Date.now() - 1000),
  );
  expect((await page.goto(`${sys.rootUrl}/card-reveal/${expired}`))!.status()).toBe(404);
  expect(await textOf(page, 'h1')).toBe('Card details unavailable');
});

test("the page is framed by the configured origin only: another origin's iframe is blocked", async () => {
  const card = await activeCard();
  /** The platform's page at `origin` framing a fresh reveal URL, once the gateway has answered the frame's request. */
  const framed = async (origin: string) => {
    const { url } = await reveal(card.id);
    const page = await browser.newPage();
    const console: string[] = [];
    page.on('console', (m) => console.push(m.text()));
    const answered = page.waitForEvent('response', (r) => r.url() === url);
    await page.goto(`${origin}/embed?src=${encodeURIComponent(url)}`);
    // the gateway served the card page: only the browser stands between it and the frame
    expect((await answered).status()).toBe(200);
    await page.waitForLoadState('load');
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    return { frame, console };
  };

  const other = await framed(otherOrigin);
  expect(other.frame.url()).not.toContain('/card-reveal/');
  expect(await other.frame.$('#pan')).toBeNull();
  expect(other.console.some((m) => m.includes('frame-ancestors'))).toBe(true);

  const allowed = await framed(allowedOrigin);
  await allowed.frame.waitForSelector('#pan');
  expect(await allowed.frame.textContent('#pan')).toMatch(/^(\d{4} ){3}\d{4}$/);
  expect(allowed.console.filter((m) => m.includes('frame-ancestors'))).toEqual([]);
});

test('two concurrent opens of one URL: exactly one shows the card', async () => {
  const card = await activeCard();
  const { url } = await reveal(card.id);
  // A HEAD (a link preview) does not spend it.
  expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
  const opened = await Promise.all([fetch(url), fetch(url), fetch(url)]);
  expect(opened.map((r) => r.status).sort()).toEqual([200, 404, 404]);
});

test('who may reveal: not a VIEW token; a FROZEN card may be revealed, a CLOSED one not; unknown: 404', async () => {
  const created = await sys.api('/tokens', { method: 'POST', json: { name: 'viewer', permissions: ['VIEW'] } });
  expect(created.status).toBe(201);
  const card = await activeCard();
  expectError(
    await sys.api(`/cards/${card.id}/reveal`, {
      method: 'POST',
      auth: basicAuthHeader(created.body.clientId, created.body.clientSecret),
    }),
    403,
    'FORBIDDEN',
  );
  expect((await sys.api(`/cards/${card.id}`, { method: 'PATCH', json: { state: 'FROZEN' } })).status).toBe(200);
  expect((await sys.api(`/cards/${card.id}/reveal`, { method: 'POST' })).status).toBe(200);
  expect((await sys.api(`/cards/${card.id}`, { method: 'PATCH', json: { state: 'CLOSED' } })).status).toBe(200);
  expectError(await sys.api(`/cards/${card.id}/reveal`, { method: 'POST' }), 409, 'CARD_ALREADY_CLOSED');
  expect((await sys.api('/cards/Card:019542f5-b3e7-1d02-0000-000000000999/reveal', { method: 'POST' })).status).toBe(
    404,
  );
});

test('a URL minted before the card was closed no longer shows it', async () => {
  const card = await activeCard();
  const { url } = await reveal(card.id);
  expect((await sys.api(`/cards/${card.id}`, { method: 'PATCH', json: { state: 'CLOSED' } })).status).toBe(200);
  expect((await fetch(url)).status).toBe(404);
});

/** An EU customer (under SCA) with verified contacts, approved through the hosted KYC page. */
async function euCardholder(name: string, number: string) {
  const customer = await createCustomer(sys, {
    fullName: name,
    region: 'FR',
    nationality: 'FR',
    phoneNumber: `+3361234${number}`,
    email: `c${number}@example.com`,
  });
  // The EU's KYC starts once both contact channels are verified; the verified phone is the SMS_OTP factor.
  for (const channel of ['verify-email', 'verify-phone']) {
    expect((await sys.api(`/customers/${customer.id}/${channel}`, { method: 'POST' })).status).toBe(204);
    expect(
      (await sys.api(`/customers/${customer.id}/${channel}/confirm`, { method: 'POST', json: { code: '123456' } }))
        .status,
    ).toBe(200);
  }
  const link = await sys.api(`/customers/${customer.id}/kyc-link`, {
    method: 'POST',
    json: { redirectUri: 'https://app.example.com/done' },
  });
  expect(link.status).toBe(201);
  expect((await chooseOutcome(sys, link.body.kycUrl, 'APPROVE')).status).toBe(303);
  for (
    let read = await sys.api(`/customers/${customer.id}`);
    read.body.kycStatus !== 'APPROVED';
    read = await sys.api(`/customers/${customer.id}`)
  ) {
    await new Promise((r) => setTimeout(r, 25));
  }
  return { customerId: customer.id as string, usdAccountId: await usdAccountOf(sys, customer.id) };
}

test("SCA rail: an EU cardholder's reveal needs its own live SCA login session", async () => {
  const [eu, other] = [await euCardholder('Carte Titulaire', '5678'), await euCardholder('Autre Titulaire', '5679')];
  const sca = (path: string, customerId: string, json: unknown) =>
    sys.api(`${path}?customerId=${encodeURIComponent(customerId)}`, { method: 'POST', json });
  const login = async (customerId: string) => {
    const start = await sca('/sca/login/start', customerId, { factor: 'SMS_OTP' });
    expect(
      (await sca('/sca/login/complete', customerId, {
        factor: 'SMS_OTP',
        endUserIpAddress: '203.0.113.4',
        challengeId: start.body.challengeId,
        code: '123456',
      })).status,
    ).toBe(200);
  };
  const card = await activeCard(eu.customerId, eu.usdAccountId);
  expectError(await sys.api(`/cards/${card.id}/reveal`, { method: 'POST' }), 409, 'SCA_SESSION_REQUIRED');
  await login(other.customerId);
  expectError(await sys.api(`/cards/${card.id}/reveal`, { method: 'POST' }), 409, 'SCA_SESSION_REQUIRED');
  await login(eu.customerId);
  const { url } = await reveal(card.id);
  expect((await fetch(url)).status).toBe(200);
});
