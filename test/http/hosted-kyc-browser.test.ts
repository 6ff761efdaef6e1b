import type { Browser } from 'playwright-core';
import { launchChromium } from '../fixtures/headless-chromium';
import { startTestSystem, type TestSystem } from '../system-harness';
import { createCustomer, verificationWhen } from './kyc-fixtures';

jest.setTimeout(15 * 60_000); // a fresh machine installs Chromium first

let sys: TestSystem;
let browser: Browser;
beforeAll(async () => {
  sys = await startTestSystem({ env: { ACCOUNTS_KYC_STEP_MS: '50' } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await sys.stop();
});

test('in a real browser: the hosted page offers the outcomes; a click approves and lands on redirectUri', async () => {
  const customer = await createCustomer(sys, { fullName: 'Browser Person' });
  // The redirect target is another origin (localhost, not 127.0.0.1) serving the gateway's health page.
  const landing = `${sys.rootUrl.replace('127.0.0.1', 'localhost')}/healthz`;
  const link = await sys.api(`/customers/${customer.id}/kyc-link`, { method: 'POST', json: { redirectUri: landing } });
  const page = await browser.newPage();
  const consoleErrors: string[] = [];
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  await page.goto(`${sys.rootUrl}${new URL(link.body.kycUrl).pathname}`);
  expect(await page.title()).toBe('Identity verification (KYC)');
  expect(await page.getByRole('button').allInnerTexts()).toEqual([
    'Approve',
    'Reject',
    'Send to manual review',
    'Ask for more information',
  ]);

  await Promise.all([page.waitForURL(landing), page.getByRole('button', { name: 'Approve' }).click()]);
  expect(await page.textContent('body')).toContain('"status":"ok"');
  const [verification] = (await sys.api(`/verifications?customerId=${customer.id}`)).body.data;
  await verificationWhen(sys, verification.id, (v) => v.verificationStatus === 'APPROVED');

  // Going back to the link: it is used up.
  const again = await page.goto(`${sys.rootUrl}${new URL(link.body.kycUrl).pathname}`);
  expect(again!.status()).toBe(404);
  expect(await page.textContent('h1')).toBe('Verification link unavailable');
  // Nothing the page does is refused by its own Content-Security-Policy (the 404s are the used link and the favicon).
  expect(consoleErrors.filter((m) => !m.startsWith('Failed to load resource'))).toEqual([]);
});

test('in a real browser without redirectUri: "Ask for more information" shows the submitted page', async () => {
  const customer = await createCustomer(sys, { fullName: 'Browser Errors' });
  const link = await sys.api(`/customers/${customer.id}/kyc-link`, { method: 'POST' });
  const page = await browser.newPage();
  await page.goto(`${sys.rootUrl}${new URL(link.body.kycUrl).pathname}`);
  await Promise.all([
    page.waitForLoadState('load'),
    page.getByRole('button', { name: 'Ask for more information' }).click(),
  ]);
  await page.waitForSelector('#status');
  expect(await page.textContent('#status')).toBe('IN_PROGRESS');
  const [verification] = (await sys.api(`/verifications?customerId=${customer.id}`)).body.data;
  await verificationWhen(sys, verification.id, (v) => v.verificationStatus === 'RESOLVE_ERRORS');
});
