import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { MAX_AMOUNT } from '../../lib/contract/amount-bounds';
import { approvedCardholder, cardWhen } from './card-fixtures';
import { balanceOf, expectError, fund } from './payments-fixtures';

/**
 * Every amount the API takes is at most MAX_AMOUNT (9 × 10^15 minor units, below 2^53); a sandbox
 * simulation that brings money in (funding, a card credit) at most 10^11. Beyond either, 400
 * INVALID_AMOUNT and nothing recorded, never a 500 or an account that can no longer be read. The
 * balance bound (BALANCE_LIMIT) is tested on the ledger and the card authorizations themselves:
 * through the sandbox it would take 90,000 credits to reach.
 */
let sys: TestSystem;
let receiver: WebhookReceiver;

beforeAll(async () => {
  sys = await startTestSystem({ env: { ACCOUNTS_KYC_STEP_MS: '30', WEBHOOK_POLL_INTERVAL_MS: '20' } });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

const merchant = { descriptor: 'REFUND DESK', mcc: '5942', country: 'US' };
const usd = (amount: number) => ({ amount, currency: { code: 'USD' }, merchant });
const simulate = (cardId: string, what: string, json: unknown) =>
  sys.api(`/sandbox/cards/${cardId}/simulate/${what}`, { method: 'POST', json });
const cardTransactions = async (customerId: string) =>
  (await sys.api(`/transactions?customerId=${customerId}&limit=100`)).body.data.filter((t: { type: string }) =>
    t.type === 'CARD'
  );
const txWebhooks = (token: string) =>
  receiver.accepted.filter((w) => w.type.startsWith('CARD_TRANSACTION.') && w.data.issuerTransactionToken === token);

test(
  'a card credit up to the sandbox maximum is taken; beyond it, or beyond the amount '
    + 'bound, 400 INVALID_AMOUNT with nothing stored, and the account and card webhooks go on',
  async () => {
    const holder = await approvedCardholder(sys);
    const created = await sys.api('/cards', {
      method: 'POST',
      json: { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.usdAccountId] },
    });
    const cardId = created.body.id;
    await cardWhen(sys, cardId, (c) => c.state === 'ACTIVE');
    const balance = () => balanceOf(sys, holder.customerId, holder.usdAccountId);

    // The amounts: 2^53 − 11 and anything past MAX_AMOUNT are refused by the contract, listing the member.
    for (const amount of [9_007_199_254_740_981, MAX_AMOUNT + 1, 1e20]) {
      const refused = await simulate(cardId, 'credit_authorization', usd(amount));
      expectError(refused, 400, 'INVALID_AMOUNT');
      expect(refused.body.details.errors).toEqual([{
        field: 'amount',
        message: `must be an integer between 1 and ${MAX_AMOUNT}`,
      }]);
    }
    // A simulated credit brings money in as sandbox funding does, within the same maximum (10^11).
    const sandboxMax = 100_000_000_000;
    for (const path of ['credit_authorization', 'financial_credit_authorization', 'credit_authorization_advice']) {
      for (const amount of [1e15, sandboxMax + 1]) {
        expectError(await simulate(cardId, path, usd(amount)), 400, 'INVALID_AMOUNT');
      }
    }
    expectError(
      await sys.api(`/sandbox/internal-accounts/${holder.usdAccountId}/fund`, {
        method: 'POST',
        json: { amount: 1e15 },
      }),
      400,
      'INVALID_AMOUNT',
    );
    expect(await cardTransactions(holder.customerId)).toEqual([]);
    expect(await balance()).toBe(0);

    // Up to it: taken and settled.
    const near = await simulate(cardId, 'credit_authorization', usd(sandboxMax));
    expect(near.status).toBe(202);
    await receiver.waitFor(() =>
      txWebhooks(near.body.issuerTransactionToken).some((w) => w.type === 'CARD_TRANSACTION.SETTLED')
    );
    expect(await balance()).toBe(sandboxMax);
    expect(await cardTransactions(holder.customerId)).toHaveLength(1);

    // The account stays readable, and spending from it and its webhooks go on.
    const accounts = await sys.api(`/customers/internal-accounts?customerId=${holder.customerId}`);
    expect(accounts.status).toBe(200);
    const spend = await simulate(cardId, 'authorization', usd(1_000));
    expect(spend.status).toBe(202);
    await receiver.waitFor(() =>
      txWebhooks(spend.body.issuerTransactionToken).some((w) => w.type === 'CARD_TRANSACTION.AUTHORIZED')
    );
    const credit = await simulate(cardId, 'credit_authorization_advice', usd(1_000));
    expect(credit.status).toBe(202);
    await receiver.waitFor(() =>
      txWebhooks(credit.body.issuerTransactionToken).some((w) => w.type === 'CARD_TRANSACTION.SETTLED')
    );
    expect(await balance()).toBe(sandboxMax);
    await receiver.waitFor(() =>
      receiver.accepted.some((w) => w.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && w.data.id === holder.usdAccountId)
    );
    expect(receiver.contractProblems).toEqual([]);
  },
  120_000,
);

test(
  'sandbox funding and card clearings refuse amounts past the '
    + 'bound with INVALID_AMOUNT, as funding past its own maximum',
  async () => {
    const holder = await approvedCardholder(sys);
    const fundAt = (amount: number) =>
      sys.api(`/sandbox/internal-accounts/${holder.usdAccountId}/fund`, { method: 'POST', json: { amount } });
    expectError(await fundAt(1e15), 400, 'INVALID_AMOUNT');
    expectError(await fundAt(MAX_AMOUNT + 1), 400, 'INVALID_AMOUNT');
    expectError(await fundAt(9_007_199_254_740_993), 400, 'INVALID_AMOUNT');
    await fund(sys, holder.usdAccountId, 5_000);
    const created = await sys.api('/cards', {
      method: 'POST',
      json: { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.usdAccountId] },
    });
    await cardWhen(sys, created.body.id, (c) => c.state === 'ACTIVE');
    const clearing = await simulate(created.body.id, 'clearing', {
      cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-000000000001',
      amount: MAX_AMOUNT + 1,
    });
    expectError(clearing, 400, 'INVALID_AMOUNT');
    // A bad amount beside another invalid member is one INVALID_INPUT listing both.
    const both = await simulate(created.body.id, 'return', { amount: MAX_AMOUNT + 1 });
    expectError(both, 400, 'INVALID_INPUT');
    expect(both.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'amount',
      'cardTransactionId',
    ]);
    expect(await balanceOf(sys, holder.customerId, holder.usdAccountId)).toBe(5_000);
  },
);

test('our OpenAPI document bounds every integer amount a request takes', async () => {
  const res = await fetch(`${sys.rootUrl}/openapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as any;
  const resolve = (
    schema: any,
  ): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()]) : schema);
  const unbounded: string[] = [];
  const COUNTS = new Set(['dailyTransactionLimit']); // a number of payments, not an amount
  const visit = (schema: any, where: string, seen: Set<any>) => {
    const s = resolve(schema);
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    for (const [name, member] of Object.entries<any>(s.properties ?? {})) {
      const m = resolve(member);
      const integers = [m, ...(m?.anyOf ?? []), ...(m?.oneOf ?? [])].map(resolve).filter((b: any) =>
        b?.type === 'integer'
      );
      if (/amount|limit|fee/i.test(name) && !COUNTS.has(name) && integers.some((b: any) => b.maximum === undefined)) {
        unbounded.push(`${where}.${name}`);
      }
      visit(member, `${where}.${name}`, seen);
    }
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const branch of s[key] ?? []) visit(branch, where, seen);
    if (s.items) visit(s.items, `${where}[]`, seen);
  };
  let bodies = 0;
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const schema = op?.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      bodies++;
      visit(schema, `${method.toUpperCase()} ${path}`, new Set());
    }
  }
  expect(bodies).toBeGreaterThan(50);
  expect(unbounded).toEqual([]);
  expect(resolve(doc.components.schemas.SandboxCardAuthorizationRequest).properties.amount.maximum).toBe(MAX_AMOUNT);
});
