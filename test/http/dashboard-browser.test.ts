import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createLogger } from '../../lib/log';
import { launchChromium } from '../fixtures/headless-chromium';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { agentCustomer, asAgent, connectedAgent, policy, quoteBody } from './agent-fixtures';
import { approvedCardholder, cardWhen } from './card-fixtures';

/**
 * The dashboard in Debian's Chromium: sign-in, live pages, the writes a token may make, the ones it
 * may not, sign-out, accessibility (axe-core) on every page, and the attacks a browser can mount.
 * A failing test leaves a screenshot in .tools/screenshots/.
 */
/**
 * What the functions passed to page.evaluate see (they run in the page; this project compiles without the DOM's types).
 */
declare const window: any, document: any, localStorage: any, sessionStorage: any;

jest.setTimeout(15 * 60_000); // a fresh machine installs Chromium first

const SCREENSHOTS = resolve(__dirname, '../../.tools/screenshots');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
let sys: TestSystem;
let browser: Browser;
let receiver: WebhookReceiver;
/** Another site's pages (same host, another port): the attacker's. */
let attacker: Server;
let attackerUrl: string;
/** Every log line the system wrote, and the secrets and cookies the tests saw: none may be in them. */
const logLines: string[] = [];
const secretsSeen: string[] = [];

beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      SANDBOX_SETTLEMENT_STEP_MS: '600',
      SETTLEMENT_POLL_MS: '50',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      ACCOUNTS_KYC_STEP_MS: '30',
    },
    logger: createLogger({ level: 'debug', write: (line) => logLines.push(line) }),
  });
  secretsSeen.push(sys.sandbox.clientSecret);
  receiver = await startWebhookReceiver({
    publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem,
    checkContract: false,
  });
  attacker = createServer((req, res) => {
    const target = sys.rootUrl;
    const pages: Record<string, string> = {
      '/frame': `<!doctype html><title>framing</title><iframe id="victim" src="${target}/dashboard/"></iframe>`,
      '/csrf': '<!doctype html><title>csrf</title><form id="f" method="post" '
        + `action="${target}/2025-10-13/customers" enctype="text/plain">`
        + `<input name='{"customerType":"INDIVIDUAL","platformCustomerId":"csrf-victim","x":"' `
        + `value='"}'></form><script>document.getElementById('f').submit()</script>`,
    };
    res.writeHead(200, { 'content-type': 'text/html' }).end(pages[req.url ?? ''] ?? '');
  });
  await new Promise<void>((done) => attacker.listen(0, '127.0.0.1', done));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await new Promise((done) => attacker?.close(done));
  await sys?.stop();
});

/** A fresh browser profile; on failure the page's screenshot is saved under the test's name. */
async function inBrowser(
  name: string,
  run: (page: Page, context: BrowserContext) => Promise<void>,
  options: { bypassCSP?: boolean } = {},
) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  try {
    await run(page, context);
  } catch (err) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `dashboard-${name}.png`), fullPage: true }).catch(() => undefined);
    throw err;
  } finally {
    await context.close();
  }
}

async function signIn(page: Page, tokenId = sys.sandbox.tokenId, secret = sys.sandbox.clientSecret) {
  await page.goto(`${sys.rootUrl}/dashboard/`);
  await page.getByLabel('API token id').fill(tokenId);
  await page.getByLabel('Secret').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

const go = async (page: Page, link: string, heading: string | RegExp) => {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
};

/** Serious and critical axe-core violations on the page as shown. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id} (${v.impact}): ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
  return found as string[];
}

async function payment() {
  const c = await agentCustomer(sys, 100_000);
  const quote = await sys.api('/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 10_000) });
  expect(quote.status).toBe(201);
  const executed = await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' });
  expect(executed.status).toBe(200);
  return { ...c, quoteId: quote.body.id as string, transactionId: executed.body.transactionId as string };
}

test('signed in, a payment made through the API reaches COMPLETED on its transaction page, no reload', async () => {
  await inBrowser('payment', async (page) => {
    await signIn(page);
    expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
    const { transactionId, quoteId } = await payment();
    await page.goto(`${sys.rootUrl}/dashboard/transactions/${encodeURIComponent(transactionId)}`);
    const status = page.getByTestId('transaction-status');
    await status.waitFor();
    const navigations: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));
    await page.waitForFunction(
      () => document.querySelector('[data-testid="transaction-status"]')?.textContent === 'COMPLETED',
      undefined,
      { timeout: 30_000 },
    );
    expect(navigations).toEqual([]); // live: the page was never reloaded
    const timeline = await page.locator('ol.timeline li').allTextContents();
    expect(timeline[0]).toMatch(/^CREATED /);
    expect(timeline.some((t) => t.startsWith('COMPLETED'))).toBe(true);
    expect(await page.getByRole('link', { name: quoteId }).count()).toBe(1);
    // Its ledger postings (debit, then settle) and its webhooks, shown without a reload.
    const postings = page.getByRole('table', { name: 'Ledger postings' });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('table')].some((t: any) =>
          t.caption?.textContent === 'Ledger postings' && t.textContent.includes('settle')
        ),
      undefined,
      { timeout: 10_000 },
    );
    expect(await postings.locator('tbody tr').first().textContent()).toMatch(/^debit.*-100\.00 USD$/);
    const webhooks = page.getByRole('table', { name: 'Webhooks about this transaction' });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('table')].some((t: any) =>
          t.caption?.textContent === 'Webhooks about this transaction' && t.textContent.includes('COMPLETED')
        ),
      undefined,
      { timeout: 10_000 },
    );
    expect(await webhooks.textContent()).toContain('OUTGOING_PAYMENT');
    if (process.env.DASHBOARD_SCREENSHOT) {
      await page.goto(`${sys.rootUrl}/dashboard/`);
      await page.getByRole('link', { name: transactionId }).first().waitFor();
      await page.screenshot({ path: process.env.DASHBOARD_SCREENSHOT });
    }
  });
});

test("the sandbox panel funds an account and simulates a card authorization, which the card's page lists", async () => {
  const holder = await approvedCardholder(sys);
  const issued = await sys.api('/cards', {
    method: 'POST',
    json: {
      cardholderId: holder.customerId,
      platformCardId: `dash-${Date.now()}`,
      form: 'VIRTUAL',
      fundingSources: [holder.usdAccountId],
    },
  });
  expect(issued.status).toBe(201);
  const card = await cardWhen(sys, issued.body.id, (c) => c.state === 'ACTIVE');
  await inBrowser('sandbox', async (page) => {
    await signIn(page);
    await go(page, 'Sandbox', 'Sandbox');
    const fund = page.getByRole('form', { name: 'Fund an internal account' });
    await fund.getByLabel('Internal account id').fill(holder.usdAccountId);
    await fund.getByLabel('Amount (minor units)').fill('5000');
    await fund.getByRole('button', { name: 'Fund account' }).click();
    await fund.getByRole('status').waitFor();
    const balance =
      (await sys.api(`/customers/internal-accounts?customerId=${holder.customerId}&currency=USD`)).body.data[0].balance
        .amount;
    expect(balance).toBe(5000);

    const simulate = page.getByRole('form', { name: 'Simulate a card event' });
    await simulate.getByLabel('Card id').fill(card.id);
    await simulate.getByLabel('Amount (minor units)').fill('1234');
    await simulate.getByRole('button', { name: 'Simulate' }).click();
    await simulate.getByRole('status').waitFor();
    await page.goto(`${sys.rootUrl}/dashboard/cards/${encodeURIComponent(card.id)}`);
    const rows = page.getByRole('table', { name: 'Card transactions' }).locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.first().textContent()).toContain('12.34 USD');
    expect(await page.content()).not.toMatch(/\b\d{16}\b/); // no card number on the page
  });
});

test('every page passes axe-core (no serious or critical violation) at desktop and at 360 px', async () => {
  const agentOwner = await agentCustomer(sys, 0);
  await connectedAgent(sys, agentOwner.customerId);
  await inBrowser('axe', async (page) => {
    await signIn(page);
    const pages: Array<[string, string | RegExp]> = [
      ['Overview', 'Overview'],
      ['Customers', 'Customers'],
      ['Accounts', 'Accounts'],
      ['Transactions', 'Transactions'],
      ['Quotes', 'Quotes'],
      ['Webhooks', 'Webhooks'],
      ['API tokens', 'API tokens'],
      ['Agents', 'Agents'],
      ['Cards', 'Cards'],
      ['Sandbox', 'Sandbox'],
    ];
    const problems: string[] = [];
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      for (const [link, heading] of pages) {
        if (width === 360) await page.goto(`${sys.rootUrl}/dashboard/`);
        await go(page, link, heading);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(150);
        for (const v of await axeViolations(page)) problems.push(`${link} @${width}: ${v}`);
        for (const alert of await page.locator('main [role=alert]').allTextContents()) {
          problems.push(`${link} @${width} shows an error: ${alert}`);
        }
        if (width === 360) {
          const overflow = await page.evaluate(() =>
            document.documentElement.scrollWidth - document.documentElement.clientWidth
          );
          if (overflow > 0) problems.push(`${link} @360: the page scrolls sideways by ${overflow}px`);
        }
      }
    }
    // The pages of one item each: a transaction, a customer, a quote, a webhook delivery, a card (when there is one).
    const first = async (path: string) => (await sys.api(path)).body.data[0]?.id as string | undefined;
    const items: Array<[string, string | undefined, string | RegExp]> = [
      ['transactions', await first('/transactions?limit=1'), /^Transaction /],
      ['customers', agentOwner.customerId, /^Customer /],
      ['quotes', await first('/quotes?limit=1'), /^Quote /],
      ['webhooks', await first('/webhooks/deliveries?limit=1'), /^Webhook delivery /],
      ['cards', await first('/cards?limit=1'), /^Card /],
    ];
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const [section, id, heading] of items) {
      if (!id) continue;
      await page.goto(`${sys.rootUrl}/dashboard/${section}/${encodeURIComponent(id)}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await page.waitForTimeout(300);
      for (const v of await axeViolations(page)) problems.push(`${section}/${id}: ${v}`);
      for (const alert of await page.locator('main [role=alert]').allTextContents()) {
        problems.push(`${section}/${id} shows an error: ${alert}`);
      }
    }
    expect(problems).toEqual([]);
  }, { bypassCSP: true }); // axe-core is injected as an inline script, which the dashboard's CSP forbids
});

test('the keyboard reaches every navigation link and the sign-out button', async () => {
  await inBrowser('keyboard', async (page) => {
    await signIn(page);
    const focused: string[] = [];
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(focused).toEqual(
      expect.arrayContaining(['Skip to content', 'Customers', 'Webhooks', 'API tokens', 'Sandbox', 'Sign out']),
    );
    // Back to the Cards link with Shift+Tab, then Enter follows it.
    while ((await page.evaluate(() => document.activeElement?.textContent?.trim())) !== 'Cards') {
      await page.keyboard.press('Shift+Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Cards' }).waitFor();
  });
});

test(
  'a token is created (its secret shown once) and revoked; the webhook endpoint '
    + 'is set, a test webhook reaches it, and its resend shows a new attempt',
  async () => {
    await inBrowser('tokens', async (page) => {
      await signIn(page);
      await go(page, 'API tokens', 'API tokens');
      await page.getByLabel('Name').fill('ci-reader');
      await page.getByRole('button', { name: 'Create token' }).click();
      const secret = (await page.getByTestId('new-token-secret').textContent())!;
      const tokenId = (await page.getByTestId('new-token-id').textContent())!;
      expect(secret.length).toBeGreaterThan(20);
      secretsSeen.push(secret);
      expect(
        (await fetch(`${sys.baseUrl}/customers`, {
          headers: { authorization: `Basic ${Buffer.from(`${tokenId}:${secret}`).toString('base64')}` },
        })).status,
      ).toBe(200);
      // Nothing of it in the browser's storage; once dismissed, nowhere on the page.
      expect(
        await page.evaluate(() =>
          JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie
        ),
      ).not.toContain(secret);
      await page.getByRole('button', { name: 'I have copied it' }).click();
      expect(await page.content()).not.toContain(secret);

      await page.getByRole('button', { name: 'Revoke ci-reader' }).click();
      await page.getByRole('button', { name: 'Revoke ci-reader' }).waitFor({ state: 'detached' });
      expect(
        (await fetch(`${sys.baseUrl}/customers`, {
          headers: { authorization: `Basic ${Buffer.from(`${tokenId}:${secret}`).toString('base64')}` },
        })).status,
      ).toBe(401);

      await go(page, 'Webhooks', 'Webhooks');
      await page.getByLabel('Webhook endpoint URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await page.getByText('Endpoint saved.').waitFor();
      expect(await page.getByTestId('webhook-endpoint').textContent()).toBe(receiver.url);
      const before = receiver.arrivals.length;
      await page.getByRole('button', { name: 'Send test webhook' }).click();
      await page.getByText(/The endpoint answered 200/).waitFor();
      expect(receiver.arrivals.length).toBeGreaterThan(before);

      // The test webhook in the log: resent from its page, a second attempt appears and reaches the receiver.
      const delivery = (await sys.api('/webhooks/deliveries?type=TEST&limit=1')).body.data[0];
      await page.getByRole('link', { name: delivery.id }).click();
      await page.getByRole('heading', { level: 1, name: /Webhook delivery/ }).waitFor();
      const attempts = page.getByRole('table', { name: 'Attempts' }).locator('tbody tr');
      await attempts.first().waitFor();
      expect(await attempts.count()).toBe(1);
      await page.getByRole('button', { name: 'Resend' }).click();
      await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 2, undefined, {
        timeout: 15_000,
      });
      expect(await attempts.nth(1).textContent()).toContain('ACKNOWLEDGED');
      await receiver.waitFor(() => receiver.arrivalsOf(delivery.id) === 2);
    });
  },
);

test("an agent's payment waiting for approval is approved from the Agents page", async () => {
  const c = await agentCustomer(sys);
  const { bearer } = await connectedAgent(
    sys,
    c.customerId,
    policy({ approvalThresholds: { currency: 'USD', amount: 10_000 } }),
  );
  const me = asAgent(sys, bearer);
  const quote = await me('/agents/me/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 20_000) });
  const action = (await me(`/agents/me/quotes/${quote.body.id}/execute`, { method: 'POST' })).body;
  expect(action.status).toBe('PENDING_APPROVAL');
  await inBrowser('agents', async (page) => {
    await signIn(page);
    await go(page, 'Agents', 'Agents');
    const form = page.getByRole('form', { name: `Approve ${action.id}` });
    await form.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('form', { name: `Approve ${action.id}` }).waitFor({ state: 'detached' });
    const after = await me(`/agents/me/actions/${action.id}`);
    expect(after.body.status).toBe('APPROVED');
  });
});

test(
  'a VIEW token sees no write button and its writes are refused; '
    + 'sign-out ends the session, and the cookie is refused after it',
  async () => {
    const viewer = (await sys.api('/tokens', { method: 'POST', json: { name: 'viewer', permissions: ['VIEW'] } })).body;
    await inBrowser('view-token', async (page, context) => {
      await signIn(page, viewer.clientId, viewer.clientSecret);
      await go(page, 'Webhooks', 'Webhooks');
      await page.getByRole('table', { name: 'Webhook deliveries' }).or(page.getByText('No webhook deliveries.')).first()
        .waitFor();
      expect(await page.getByRole('button', { name: 'Save endpoint' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Send test webhook' }).count()).toBe(0);
      await go(page, 'API tokens', 'API tokens');
      expect(await page.getByRole('button', { name: 'Create token' }).count()).toBe(0);
      await go(page, 'Sandbox', 'Sandbox');
      expect(await page.getByRole('button').filter({ hasNotText: 'Sign out' }).count()).toBe(0);
      // The server refuses the write anyway, even with the session's CSRF token.
      const refused = await page.evaluate(async () => {
        const s: any = await (await fetch('/dashboard/session')).json();
        const r = await fetch('/2025-10-13/customers', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken },
          body: JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: 'viewer-in-browser' }),
        });
        return r.status;
      });
      expect(refused).toBe(403);

      const [cookie] = await context.cookies();
      secretsSeen.push(viewer.clientSecret, cookie.value);
      expect(cookie).toMatchObject({ name: 'grid_dashboard_session', httpOnly: true, sameSite: 'Strict' });
      expect(cookie.expires).toBeGreaterThan(Date.now() / 1000);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
      expect(await context.cookies()).toEqual([]);
      // The cookie, stolen before sign-out, is refused afterwards.
      const stolen = await fetch(`${sys.baseUrl}/customers`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
      expect(stolen.status).toBe(401);
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    });
  },
);

test(
  'attacks: a cross-site form post without the CSRF token, script in '
    + 'a customer name and in a webhook payload, framing by another site',
  async () => {
    const xss = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const customer = await sys.api('/customers', {
      method: 'POST',
      json: { customerType: 'INDIVIDUAL', platformCustomerId: `xss-${Date.now()}`, fullName: xss },
    });
    expect(customer.status).toBe(201);
    await inBrowser('attacks', async (page) => {
      await signIn(page);
      // Cross-site form post (another port of the same host is the same site: SameSite sends the cookie; the CSRF token
      // stops it).
      const posted = page.waitForResponse((r) =>
        r.url().endsWith('/2025-10-13/customers') && r.request().method() === 'POST'
      );
      await page.goto(`${attackerUrl}/csrf`);
      const response = await posted;
      expect(response.status()).toBe(403);
      expect((await sys.api('/customers?platformCustomerId=csrf-victim')).body.data).toEqual([]);

      // Script injection: the name is shown as text, nothing runs.
      await page.goto(`${sys.rootUrl}/dashboard/customers/${encodeURIComponent(customer.body.id)}`);
      await page.getByRole('heading', { level: 1, name: `Customer ${xss}` }).waitFor();
      await page.goto(`${sys.rootUrl}/dashboard/customers`);
      await page.getByRole('link', { name: xss }).waitFor();
      expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
      expect(await page.locator('main img, main script').count()).toBe(0);

      // A webhook payload holding markup (a payment's description), shown on its delivery's page as text.
      expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
      const c = await agentCustomer(sys, 100_000);
      const quote = await sys.api('/quotes', {
        method: 'POST',
        json: { ...quoteBody(c.usdAccountId, c.mxnPayee, 1_000), description: xss },
      });
      expect(quote.status).toBe(201);
      expect((await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })).status).toBe(200);
      let marked: any;
      for (let i = 0; i < 200 && !marked; i++) {
        marked = (await sys.api('/webhooks/deliveries?limit=50')).body.data.find((d: any) =>
          JSON.stringify(d.data ?? {}).includes('__pwned')
        );
        if (!marked) await new Promise((r) => setTimeout(r, 50));
      }
      expect(marked).toBeDefined();
      await page.goto(`${sys.rootUrl}/dashboard/webhooks/${encodeURIComponent(marked.id)}`);
      await page.getByLabel('Payload (data)').waitFor();
      // shown as JSON text
      expect(await page.getByLabel('Payload (data)').textContent()).toContain(JSON.stringify(xss).slice(1, -1));
      expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
      expect(await page.locator('main img, main script').count()).toBe(0);

      // Clickjacking: another site's frame of the dashboard is blocked by frame-ancestors.
      const consoleLines: string[] = [];
      page.on('console', (m) => consoleLines.push(m.text()));
      const answered = page.waitForResponse((r) => r.url().startsWith(`${sys.rootUrl}/dashboard/`));
      await page.goto(`${attackerUrl}/frame`);
      expect((await answered).headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await page.waitForTimeout(300);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      expect(await frame.$('#app')).toBeNull();
    });
  },
);

test('nothing secret reached the logs: no token secret, no session cookie', () => {
  expect(logLines.length).toBeGreaterThan(100);
  expect(secretsSeen.length).toBeGreaterThanOrEqual(4);
  for (const secret of secretsSeen) expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
});
