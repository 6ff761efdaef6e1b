import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { approvedCardholder, cardWhen } from './card-fixtures';
import { balanceOf, fund } from './payments-fixtures';

// Authorizations expire after 4 s here (7 days by default); the sandbox's delayed pull is confirmed after 200 ms.
let sys: TestSystem;
let receiver: WebhookReceiver;

beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      ACCOUNTS_KYC_STEP_MS: '30',
      WEBHOOK_POLL_INTERVAL_MS: '20',
      CARDS_AUTHORIZATION_EXPIRY_MS: '4000',
      CARDS_EXPIRY_POLL_MS: '100',
      CARDS_SANDBOX_PULL_CONFIRM_MS: '200',
    },
  });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

const txWebhooks = (token: string) =>
  receiver.accepted.filter((w) => w.type.startsWith('CARD_TRANSACTION.') && w.data.issuerTransactionToken === token);

test(
  'an authorization never cleared expires: its hold goes back exactly and '
    + 'CARD_TRANSACTION.SETTLED is sent; a delayed pull (005) is confirmed meanwhile',
  async () => {
    const buyer = await approvedCardholder(sys);
    await fund(sys, buyer.usdAccountId, 5_000);
    const created = await sys.api('/cards', {
      method: 'POST',
      json: { cardholderId: buyer.customerId, form: 'VIRTUAL', fundingSources: [buyer.usdAccountId] },
    });
    const cardId = created.body.id;
    await cardWhen(sys, cardId, (c) => c.state === 'ACTIVE');
    const simulate = (path: string, json: unknown) =>
      sys.api(`/sandbox/cards/${cardId}/simulate/${path}`, { method: 'POST', json });

    const stale = await simulate('authorization', {
      amount: 1_200,
      currency: { code: 'USD' },
      merchant: { descriptor: 'HOTEL DEPOSIT-005' },
    });
    const partly = await simulate('authorization', {
      amount: 800,
      currency: { code: 'USD' },
      merchant: { descriptor: 'SPLIT SHIPMENT' },
    });
    expect([stale.status, partly.status]).toEqual([202, 202]);
    await receiver.waitFor(() =>
      txWebhooks(partly.body.issuerTransactionToken).length >= 1
      && txWebhooks(stale.body.issuerTransactionToken).length >= 1
    );
    expect(txWebhooks(stale.body.issuerTransactionToken)[0].data.pullSummary).toEqual({
      count: 0,
      totalAmount: 0,
      pendingCount: 1,
    });
    const partlyId = txWebhooks(partly.body.issuerTransactionToken)[0].data.id;
    expect((await simulate('clearing', { cardTransactionId: partlyId, amount: 300 })).status).toBe(202);
    expect(await balanceOf(sys, buyer.customerId, buyer.usdAccountId)).toBe(3_000);

    const settled = (token: string) => txWebhooks(token).find((w) => w.type === 'CARD_TRANSACTION.SETTLED');
    await receiver.waitFor(
      () => !!settled(stale.body.issuerTransactionToken) && !!settled(partly.body.issuerTransactionToken),
      30_000,
    );
    expect(settled(stale.body.issuerTransactionToken)!.data).toMatchObject({
      status: 'SETTLED',
      authorizedAmount: { amount: 1_200 },
      pullSummary: { pendingCount: 0 },
    });
    expect(settled(stale.body.issuerTransactionToken)!.data.settledAmount).toBeUndefined();
    expect(settled(partly.body.issuerTransactionToken)!.data).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 300 },
    });
    // 1 200 and the 500 still held come back: 5 000 − 300 cleared.
    expect(await balanceOf(sys, buyer.customerId, buyer.usdAccountId)).toBe(4_700);
    expect(receiver.contractProblems).toEqual([]);
  },
);
