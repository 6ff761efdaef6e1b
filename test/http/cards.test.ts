import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { asAgent, connectedAgent, policy } from './agent-fixtures';
import { approvedCardholder, cardWhen } from './card-fixtures';
import { createCustomer } from './kyc-fixtures';
import { balanceOf, expectError, fund, payingCustomer } from './payments-fixtures';

let sys: TestSystem;
let receiver: WebhookReceiver;
let holder: { customerId: string; usdAccountId: string };

beforeAll(async () => {
  sys = await startTestSystem({ env: { ACCOUNTS_KYC_STEP_MS: '30', WEBHOOK_POLL_INTERVAL_MS: '20' } });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
  holder = await approvedCardholder(sys);
}, 180_000);
afterAll(async () => {
  await sys.stop();
  await receiver.close();
});

let seq = 0;
const issue = (extra: Record<string, unknown> = {}) =>
  sys.api('/cards', {
    method: 'POST',
    json: {
      cardholderId: holder.customerId,
      platformCardId: `card-${process.pid}-${seq++}`,
      form: 'VIRTUAL',
      fundingSources: [holder.usdAccountId],
      ...extra,
    },
  });
const patch = (id: string, json: unknown) => sys.api(`/cards/${id}`, { method: 'PATCH', json });
const cardWebhooks = (id: string) => receiver.accepted.filter((w) => w.data.id === id && w.type.startsWith('CARD.'));

describe('POST /cards', () => {
  test('an approved cardholder gets a PROCESSING card the issuer then activates (CARD.STATE_CHANGE)', async () => {
    const res = await issue({ platformCardId: 'card-emp-aary-001' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^Card:/),
      cardholderId: holder.customerId,
      platformCardId: 'card-emp-aary-001',
      state: 'PROCESSING',
      stateReason: null,
      form: 'VIRTUAL',
      fundingSources: [holder.usdAccountId],
      currency: 'USD',
    });
    const active = await cardWhen(sys, res.body.id, (c) => c.state === 'ACTIVE');
    expect(active).toMatchObject({
      stateReason: null,
      brand: 'VISA',
      last4: expect.stringMatching(/^\d{4}$/),
      expMonth: expect.any(Number),
      expYear: expect.any(Number),
      processorRef: expect.any(String),
    });
    // No card data on the resource.
    expect(Object.keys(active).sort()).toEqual([
      'brand',
      'cardholderId',
      'createdAt',
      'currency',
      'expMonth',
      'expYear',
      'form',
      'fundingSources',
      'id',
      'issuerRef',
      'last4',
      'platformCardId',
      'processorRef',
      'state',
      'stateReason',
      'updatedAt',
    ]);
    await receiver.waitFor(() => cardWebhooks(res.body.id).length >= 1);
    const [hook] = cardWebhooks(res.body.id);
    expect(hook.type).toBe('CARD.STATE_CHANGE');
    expect(hook.data).toEqual(active);
    expect(receiver.contractProblems).toEqual([]);
  });

  test('the issuer refusing a card closes it with ISSUER_REJECTED', async () => {
    const res = await issue({ platformCardId: `card-${seq++}-issuer-reject` });
    expect(res.status).toBe(201);
    const closed = await cardWhen(sys, res.body.id, (c) => c.state !== 'PROCESSING');
    expect(closed).toMatchObject({ state: 'CLOSED', stateReason: 'ISSUER_REJECTED', fundingSources: [] });
  });

  test('a cardholder whose KYC is not APPROVED gets no card (CARDHOLDER_KYC_NOT_APPROVED)', async () => {
    const { customerId, usdAccountId } = await payingCustomer(sys);
    const res = await sys.api('/cards', {
      method: 'POST',
      json: { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [usdAccountId] },
    });
    expectError(res, 400, 'CARDHOLDER_KYC_NOT_APPROVED');
    expect((await sys.api(`/cards?cardholderId=${customerId}`)).body.data).toEqual([]);
  });

  test("a funding source that is not the cardholder's is FUNDING_SOURCE_INELIGIBLE, listing it", async () => {
    const other = await payingCustomer(sys);
    const res = await issue({ fundingSources: [holder.usdAccountId, other.usdAccountId] });
    expectError(res, 400, 'FUNDING_SOURCE_INELIGIBLE');
    expect(res.body.details.errors).toEqual([{
      field: 'fundingSources[1]',
      message: 'is not an internal account of the cardholder',
    }]);
  });

  test('invalid bodies list every invalid member', async () => {
    const res = await sys.api('/cards', { method: 'POST', json: { form: 'PHYSICAL', fundingSources: [] } });
    expectError(res, 400, 'INVALID_INPUT');
    const fields = res.body.details.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['cardholderId', 'form', 'fundingSources']));
    const password = await issue({ threeDSecurePassword: 'AbCd1234EfGh5678' });
    expectError(password, 400, 'INVALID_INPUT');
    expect(password.body.details.errors).toEqual([{
      field: 'threeDSecurePassword',
      message: 'this card program has no static-password 3-D Secure factor',
    }]);
    const unknown = await sys.api('/cards', {
      method: 'POST',
      json: {
        cardholderId: 'Customer:00000000-0000-4000-8000-00000000dead',
        form: 'VIRTUAL',
        fundingSources: [holder.usdAccountId],
      },
    });
    expectError(unknown, 400, 'INVALID_INPUT');
  });

  test("a platformCardId is the platform's own: used twice is 409", async () => {
    const first = await issue({ platformCardId: 'dup-card' });
    expect(first.status).toBe(201);
    expectError(await issue({ platformCardId: 'dup-card' }), 409, 'CONFLICT');
  });
});

describe('PATCH /cards/{id}', () => {
  test('ACTIVE ⇄ FROZEN, then CLOSED for good; each transition announced, refused ones 409', async () => {
    const { body: created } = await issue();
    await cardWhen(sys, created.id, (c) => c.state === 'ACTIVE');
    expect((await patch(created.id, { state: 'FROZEN' })).body).toMatchObject({ state: 'FROZEN', stateReason: null });
    expectError(await patch(created.id, { state: 'FROZEN' }), 409, 'INVALID_STATE_TRANSITION');
    expect((await patch(created.id, { state: 'ACTIVE' })).body.state).toBe('ACTIVE');
    const closed = await patch(created.id, { state: 'CLOSED' });
    expect(closed.body).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [] });
    expectError(await patch(created.id, { state: 'ACTIVE' }), 409, 'INVALID_STATE_TRANSITION');
    expectError(await patch(created.id, { state: 'CLOSED' }), 409, 'CARD_ALREADY_CLOSED');
    expectError(await patch(created.id, { fundingSources: [holder.usdAccountId] }), 409, 'CARD_NOT_MUTABLE');
    await receiver.waitFor(() => cardWebhooks(created.id).length >= 4);
    const states = cardWebhooks(created.id).map((w) => w.data.state).sort();
    expect(states).toEqual(['ACTIVE', 'ACTIVE', 'CLOSED', 'FROZEN']);
    expect(cardWebhooks(created.id).every((w) => w.type === 'CARD.STATE_CHANGE')).toBe(true);
    expect(receiver.contractProblems).toEqual([]);
  });

  test('replacing the funding sources sends CARD.FUNDING_SOURCE_CHANGE; an ineligible list changes none', async () => {
    const second = await sys.api('/customers/internal-accounts?customerId=' + holder.customerId);
    const usd = second.body.data.filter((a: any) => a.balance.currency.code === 'USD').map((a: any) => a.id);
    const { body: created } = await issue();
    await cardWhen(sys, created.id, (c) => c.state === 'ACTIVE');
    const updated = await patch(created.id, { state: 'FROZEN', fundingSources: usd });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ state: 'FROZEN', fundingSources: usd });
    await receiver.waitFor(() => cardWebhooks(created.id).some((w) => w.type === 'CARD.FUNDING_SOURCE_CHANGE'));
    expect(cardWebhooks(created.id).find((w) => w.type === 'CARD.FUNDING_SOURCE_CHANGE')!.data).toMatchObject({
      fundingSources: usd,
      state: 'FROZEN',
    });

    const stranger = await payingCustomer(sys);
    expectError(await patch(created.id, { fundingSources: [stranger.usdAccountId] }), 400, 'FUNDING_SOURCE_INELIGIBLE');
    expectError(await patch(created.id, { fundingSources: [] }), 400, 'INVALID_INPUT');
    expectError(await patch(created.id, { state: 'CLOSED', fundingSources: usd }), 400, 'INVALID_INPUT');
    expectError(await patch(created.id, {}), 400, 'INVALID_INPUT');
    expectError(await patch(created.id, { state: 'PROCESSING' }), 400, 'INVALID_INPUT');
    expect((await sys.api(`/cards/${created.id}`)).body.fundingSources).toEqual(usd);
  });

  test('an unknown card is 404', async () => {
    expectError(
      await patch('Card:00000000-0000-4000-8000-00000000dead', { state: 'FROZEN' }),
      404,
      'REFERENCE_NOT_FOUND',
    );
    expectError(await sys.api('/cards/Card:00000000-0000-4000-8000-00000000dead'), 404, 'REFERENCE_NOT_FOUND');
  });
});

describe('GET /cards', () => {
  test('filters by cardholder, account, platformCardId and state, and pages by cursor in both orders', async () => {
    const other = await approvedCardholder(sys);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await sys.api('/cards', {
        method: 'POST',
        json: {
          cardholderId: other.customerId,
          platformCardId: `page-${i}`,
          form: 'VIRTUAL',
          fundingSources: [other.usdAccountId],
        },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    await Promise.all(ids.map((id) => cardWhen(sys, id, (c) => c.state === 'ACTIVE')));
    await patch(ids[1], { state: 'FROZEN' });

    const walk = async (order: string) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await sys.api(
          `/cards?cardholderId=${other.customerId}&limit=2&sortOrder=${order}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(res.status).toBe(200);
        expect(res.body.totalCount).toBe(5);
        seen.push(...res.body.data.map((c: any) => c.id));
        cursor = res.body.hasMore ? res.body.nextCursor : undefined;
      } while (cursor);
      return seen;
    };
    expect(await walk('asc')).toEqual(ids);
    expect(await walk('desc')).toEqual([...ids].reverse());
    expect((await sys.api(`/cards?accountId=${other.usdAccountId}`)).body.data).toHaveLength(5);
    expect((await sys.api(`/cards?platformCardId=page-3`)).body.data.map((c: any) => c.id)).toEqual([ids[3]]);
    expect((await sys.api(`/cards?cardholderId=${other.customerId}&state=FROZEN`)).body.data.map((c: any) => c.id))
      .toEqual([ids[1]]);
    expectError(await sys.api('/cards?state=MELTED'), 400, 'INVALID_INPUT');
    expectError(await sys.api('/cards?cursor=nonsense'), 400, 'INVALID_INPUT');
  });

  test('a customer without cards lists none', async () => {
    const customer = await createCustomer(sys);
    expect((await sys.api(`/cards?cardholderId=${customer.id}`)).body).toMatchObject({ data: [], hasMore: false });
  });
});

describe('sandbox card simulations', () => {
  const simulate = (cardId: string, what: string, json: unknown) =>
    sys.api(`/sandbox/cards/${cardId}/simulate/${what}`, { method: 'POST', json });
  const txWebhooks = (token: string) =>
    receiver.accepted.filter((w) => w.type.startsWith('CARD_TRANSACTION.') && w.data.issuerTransactionToken === token);
  const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };

  test(
    'authorization → partial clearing → clearing → return → return reversal, the '
      + 'balance exact at each step, every webhook valid; a frozen card is declined',
    async () => {
      const buyer = await approvedCardholder(sys);
      await fund(sys, buyer.usdAccountId, 10_000);
      const created = await sys.api('/cards', {
        method: 'POST',
        json: { cardholderId: buyer.customerId, form: 'VIRTUAL', fundingSources: [buyer.usdAccountId] },
      });
      const cardId = created.body.id;
      await cardWhen(sys, cardId, (c) => c.state === 'ACTIVE');
      const balance = () => balanceOf(sys, buyer.customerId, buyer.usdAccountId);

      const auth = await simulate(cardId, 'authorization', { amount: 3_000, currency: { code: 'USD' }, merchant });
      expect(auth.status).toBe(202);
      const token = auth.body.issuerTransactionToken;
      await receiver.waitFor(() => txWebhooks(token).length >= 1);
      const authorized = txWebhooks(token)[0];
      expect(authorized.type).toBe('CARD_TRANSACTION.AUTHORIZED');
      expect(authorized.data).toMatchObject({
        type: 'CARD',
        cardId,
        customerId: buyer.customerId,
        status: 'AUTHORIZED',
        accountId: buyer.usdAccountId,
        authorizedAmount: { amount: 3_000, currency: { code: 'USD' } },
        merchant,
      });
      const transactionId = authorized.data.id as string;
      expect(await balance()).toBe(7_000);

      expect((await simulate(cardId, 'clearing', { cardTransactionId: transactionId, amount: 1_000 })).status).toBe(
        202,
      );
      expect(await balance()).toBe(7_000);
      expect((await simulate(cardId, 'clearing', { cardTransactionId: transactionId, amount: 2_000 })).status).toBe(
        202,
      );
      expect(await balance()).toBe(7_000);
      expectError(
        await simulate(cardId, 'return_reversal', { cardTransactionId: transactionId }),
        400,
        'INVALID_STATE',
      );
      expect((await simulate(cardId, 'return', { cardTransactionId: transactionId, amount: 500 })).status).toBe(202);
      expect(await balance()).toBe(7_500);
      expectError(
        await simulate(cardId, 'return', { cardTransactionId: transactionId, amount: 2_501 }),
        400,
        'INVALID_STATE',
      );
      expect((await simulate(cardId, 'return', { cardTransactionId: transactionId, amount: 2_500 })).status).toBe(202);
      expect(await balance()).toBe(10_000);
      await receiver.waitFor(() => txWebhooks(token).some((w) => w.type === 'CARD_TRANSACTION.REFUNDED'));

      // The reversal undoes the last return (2 500): REFUNDED → SETTLED with 500 still refunded.
      const reversal = await simulate(cardId, 'return_reversal', { cardTransactionId: transactionId });
      expect(reversal.status).toBe(202);
      expect(reversal.body).toEqual({ issuerTransactionToken: token });
      expect(await balance()).toBe(7_500);

      await receiver.waitFor(() => txWebhooks(token).length >= 5);
      expect(txWebhooks(token).map((w) => w.type)).toEqual([
        'CARD_TRANSACTION.AUTHORIZED',
        'CARD_TRANSACTION.PARTIALLY_SETTLED',
        'CARD_TRANSACTION.SETTLED',
        'CARD_TRANSACTION.REFUNDED',
        'CARD_TRANSACTION.SETTLED',
      ]);
      expect(txWebhooks(token).find((w) => w.type === 'CARD_TRANSACTION.REFUNDED')!.data).toMatchObject({
        refundedAmount: { amount: 3_000 },
        settledAmount: { amount: 3_000 },
      });
      expect(txWebhooks(token)[4].data).toMatchObject({
        status: 'SETTLED',
        settledAmount: { amount: 3_000 },
        refundedAmount: { amount: 500 },
        refundSummary: { count: 1, totalAmount: 500 },
      });

      await patch(cardId, { state: 'FROZEN' });
      const frozen = await simulate(cardId, 'authorization', { amount: 100, currency: { code: 'USD' }, merchant });
      expect(frozen.status).toBe(202);
      expect(await balance()).toBe(7_500);
      expect(txWebhooks(frozen.body.issuerTransactionToken)).toEqual([]);
      expect(receiver.contractProblems).toEqual([]);
    },
  );

  test('balance inquiry, financial and credit authorizations, and advice move the ledger as described', async () => {
    const buyer = await approvedCardholder(sys);
    await fund(sys, buyer.usdAccountId, 10_000);
    const created = await sys.api('/cards', {
      method: 'POST',
      json: { cardholderId: buyer.customerId, form: 'VIRTUAL', fundingSources: [buyer.usdAccountId] },
    });
    const cardId = created.body.id;
    await cardWhen(sys, cardId, (c) => c.state === 'ACTIVE');
    const balance = () => balanceOf(sys, buyer.customerId, buyer.usdAccountId);
    const usd = (amount: number, descriptor = 'ACME MARKETPLACE') => ({
      amount,
      currency: { code: 'USD' },
      merchant: { descriptor, mcc: '5942', country: 'US' },
    });
    const only = async (token: string) => {
      await receiver.waitFor(() => txWebhooks(token).length >= 1);
      return txWebhooks(token)[0];
    };

    const inquiry = await simulate(cardId, 'balance_inquiry', {
      merchant: { descriptor: 'SHELL OIL 12345678', mcc: '5541', country: 'US' },
    });
    expect(inquiry.status).toBe(202);
    expect((await only(inquiry.body.issuerTransactionToken)).data).toMatchObject({
      status: 'AUTHORIZED',
      authorizedAmount: { amount: 0 },
      direction: 'DEBIT',
    });
    expect(await balance()).toBe(10_000);

    const atm = await simulate(cardId, 'financial_authorization', usd(8_000, 'ATM WITHDRAWAL 24TH ST'));
    expect(atm.status).toBe(202);
    expect(await only(atm.body.issuerTransactionToken)).toMatchObject({
      type: 'CARD_TRANSACTION.SETTLED',
      data: { settledAmount: { amount: 8_000 }, direction: 'DEBIT' },
    });
    expect(await balance()).toBe(2_000);

    let expected = 2_000;
    for (const path of ['credit_authorization', 'financial_credit_authorization', 'credit_authorization_advice']) {
      const credit = await simulate(cardId, path, usd(2_500));
      expect(credit.status).toBe(202);
      expect(await only(credit.body.issuerTransactionToken)).toMatchObject({
        type: 'CARD_TRANSACTION.SETTLED',
        data: { direction: 'CREDIT', settledAmount: { amount: 2_500 } },
      });
      expected += 2_500;
      expect(await balance()).toBe(expected);
    }

    const auth = await simulate(cardId, 'authorization', usd(1_000));
    const authorized = await only(auth.body.issuerTransactionToken);
    const id = authorized.data.id as string;
    expect(await balance()).toBe(expected - 1_000);
    expect((await simulate(cardId, 'authorization_advice', { cardTransactionId: id, amount: 2_000 })).status).toBe(202);
    expect(await balance()).toBe(expected - 2_000);
    expect((await simulate(cardId, 'authorization_advice', { cardTransactionId: id, amount: 1_200 })).status).toBe(202);
    expect(await balance()).toBe(expected - 1_200);
    await receiver.waitFor(() => txWebhooks(auth.body.issuerTransactionToken).length >= 3);
    expect(
      txWebhooks(auth.body.issuerTransactionToken).map((w) => (w.data.authorizedAmount as { amount: number }).amount),
    ).toEqual([1_000, 2_000, 1_200]);
    // Re-sizing beyond the balance: EXCEPTION, nothing moved.
    expect((await simulate(cardId, 'authorization_advice', { cardTransactionId: id, amount: 1_000_000 })).status).toBe(
      202,
    );
    expect(await balance()).toBe(expected - 1_200);
    await receiver.waitFor(() =>
      txWebhooks(auth.body.issuerTransactionToken).some((w) => w.type === 'CARD_TRANSACTION.EXCEPTION')
    );
    expectError(
      await simulate(cardId, 'authorization_advice', { cardTransactionId: id, amount: 5 }),
      400,
      'INVALID_STATE',
    );
    expect(receiver.contractProblems).toEqual([]);
  });

  test('suffix 006: the pull is approved then its confirmation fails: EXCEPTION, the hold given back', async () => {
    const buyer = await approvedCardholder(sys);
    await fund(sys, buyer.usdAccountId, 1_000);
    const created = await sys.api('/cards', {
      method: 'POST',
      json: { cardholderId: buyer.customerId, form: 'VIRTUAL', fundingSources: [buyer.usdAccountId] },
    });
    await cardWhen(sys, created.body.id, (c) => c.state === 'ACTIVE');
    const failed = await simulate(created.body.id, 'authorization', {
      amount: 400,
      currency: { code: 'USD' },
      merchant: { descriptor: 'UBER EATS-006' },
    });
    expect(failed.status).toBe(202);
    await receiver.waitFor(() => txWebhooks(failed.body.issuerTransactionToken).length >= 2);
    expect(txWebhooks(failed.body.issuerTransactionToken).map((w) => w.type)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.EXCEPTION',
    ]);
    expect(await balanceOf(sys, buyer.customerId, buyer.usdAccountId)).toBe(1_000);
    expect(receiver.contractProblems).toEqual([]);
  });

  test(
    'card transactions are read in GET /transactions (type CARD) '
      + "with the reference's filters and cursor pages, and by id",
    async () => {
      const buyer = await approvedCardholder(sys);
      await fund(sys, buyer.usdAccountId, 10_000);
      const created = await sys.api('/cards', {
        method: 'POST',
        json: { cardholderId: buyer.customerId, form: 'VIRTUAL', fundingSources: [buyer.usdAccountId] },
      });
      const cardId = created.body.id;
      await cardWhen(sys, cardId, (c) => c.state === 'ACTIVE');
      const tokens: string[] = [];
      for (let i = 0; i < 3; i++) {
        const auth = await simulate(cardId, 'authorization', { amount: 100 + i, currency: { code: 'USD' }, merchant });
        tokens.push(auth.body.issuerTransactionToken);
      }
      await simulate(cardId, 'authorization', {
        amount: 100,
        currency: { code: 'USD' },
        merchant: { descriptor: 'DECLINED-002' },
      });
      await receiver.waitFor(() => tokens.every((t) => txWebhooks(t).length >= 1));
      const ids = tokens.map((t) => txWebhooks(t)[0].data.id as string);

      const listed = await sys.api(`/transactions?customerId=${buyer.customerId}`);
      expect(listed.status).toBe(200);
      const cards = listed.body.data.filter((t: any) => t.type === 'CARD');
      expect(cards.map((t: any) => t.id)).toEqual([...ids].reverse());
      expect(cards[0]).toEqual(txWebhooks(tokens[2])[0].data);
      // The funding deposit is the customer's other transaction: both kinds in one list, newest first.
      expect(listed.body.totalCount).toBe(listed.body.data.length);

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await sys.api(
          `/transactions?customerId=${buyer.customerId}&limit=2&sortOrder=asc${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(page.status).toBe(200);
        seen.push(...page.body.data.map((t: any) => t.id));
        cursor = page.body.hasMore ? page.body.nextCursor : undefined;
      } while (cursor);
      expect(seen).toEqual([...listed.body.data.map((t: any) => t.id)].reverse());

      expect(
        (await sys.api(`/transactions?customerId=${buyer.customerId}&type=OUTGOING`)).body.data.filter((t: any) =>
          t.type === 'CARD'
        ),
      ).toEqual([]);
      const one = await sys.api(`/transactions/${ids[0]}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({
        type: 'CARD',
        id: ids[0],
        status: 'AUTHORIZED',
        authorizedAmount: { amount: 100 },
      });
      expectError(
        await sys.api('/transactions/CardTransaction:00000000-0000-4000-8000-00000000dead'),
        404,
        'TRANSACTION_NOT_FOUND',
      );
    },
  );

  test(
    'an agent of the cardholder lists and reads its card transactions '
      + '(type CARD) when their funding account is one it may see',
    async () => {
      const buyer = await approvedCardholder(sys);
      await fund(sys, buyer.usdAccountId, 10_000);
      const created = await sys.api('/cards', {
        method: 'POST',
        json: { cardholderId: buyer.customerId, form: 'VIRTUAL', fundingSources: [buyer.usdAccountId] },
      });
      await cardWhen(sys, created.body.id, (c) => c.state === 'ACTIVE');
      const auth = await simulate(created.body.id, 'authorization', {
        amount: 250,
        currency: { code: 'USD' },
        merchant,
      });
      await receiver.waitFor(() => txWebhooks(auth.body.issuerTransactionToken).length >= 1);
      const [authorized] = txWebhooks(auth.body.issuerTransactionToken);
      const platformList = (await sys.api(`/transactions?customerId=${buyer.customerId}`)).body;

      const agentSees = async (accountRestrictions?: { allowedAccountIds: string[] }) => {
        const { bearer } = await connectedAgent(
          sys,
          buyer.customerId,
          policy(accountRestrictions ? { accountRestrictions } : {}),
        );
        const me = asAgent(sys, bearer);
        const res = await me('/agents/me/transactions');
        expect(res.status).toBe(200);
        return { list: res.body, one: await me(`/agents/me/transactions/${authorized.data.id}`) };
      };
      const unrestricted = await agentSees();
      expect(unrestricted.list.data).toEqual(platformList.data);
      expect(unrestricted.list.data.find((t: any) => t.type === 'CARD')).toEqual(authorized.data);
      expect(unrestricted.list.totalCount).toBe(platformList.totalCount);
      expect(unrestricted.one.status).toBe(200);
      expect(unrestricted.one.body).toEqual(authorized.data);
      const usdOnly = await agentSees({ allowedAccountIds: [buyer.usdAccountId] });
      expect(usdOnly.list.data.map((t: any) => t.id)).toContain(authorized.data.id);
      expect(usdOnly.one.status).toBe(200);
      const elsewhere = await agentSees({
        allowedAccountIds: ['InternalAccount:00000000-0000-4000-8000-000000000000'],
      });
      expect(elsewhere.list).toMatchObject({ data: [], totalCount: 0 });
      expectError(elsewhere.one, 404, 'TRANSACTION_NOT_FOUND');
      // Another customer's agent does not find it.
      const stranger = await approvedCardholder(sys);
      const { bearer } = await connectedAgent(sys, stranger.customerId);
      expectError(
        await asAgent(sys, bearer)(`/agents/me/transactions/${authorized.data.id}`),
        404,
        'TRANSACTION_NOT_FOUND',
      );
    },
  );

  test('a frozen card and the decline suffixes are declined: no hold, no webhook', async () => {
    const buyer = await approvedCardholder(sys);
    await fund(sys, buyer.usdAccountId, 5_000);
    const created = await sys.api('/cards', {
      method: 'POST',
      json: { cardholderId: buyer.customerId, form: 'VIRTUAL', fundingSources: [buyer.usdAccountId] },
    });
    await cardWhen(sys, created.body.id, (c) => c.state === 'ACTIVE');
    const declined = await simulate(created.body.id, 'authorization', {
      amount: 100,
      currency: { code: 'USD' },
      merchant: { descriptor: 'AMAZON RETAIL US-002' },
    });
    expect(declined.status).toBe(202);
    await patch(created.body.id, { state: 'FROZEN' });
    const paused = await simulate(created.body.id, 'authorization', {
      amount: 100,
      currency: { code: 'USD' },
      merchant,
    });
    expect(paused.status).toBe(202);
    expect(await balanceOf(sys, buyer.customerId, buyer.usdAccountId)).toBe(5_000);
    expect(txWebhooks(declined.body.issuerTransactionToken)).toEqual([]);
    expect(txWebhooks(paused.body.issuerTransactionToken)).toEqual([]);
  });

  test('an unknown card or transaction is 404; a bad body lists its fields', async () => {
    expectError(
      await simulate('Card:00000000-0000-4000-8000-00000000dead', 'authorization', {
        amount: 1,
        currency: { code: 'USD' },
        merchant,
      }),
      404,
      'REFERENCE_NOT_FOUND',
    );
    const { body: created } = await issue();
    expectError(
      await simulate(created.id, 'clearing', {
        cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-00000000dead',
        amount: 1,
      }),
      404,
      'REFERENCE_NOT_FOUND',
    );
    expectError(await simulate(created.id, 'authorization', { amount: 0, merchant: {} }), 400, 'INVALID_INPUT');
    const ghost = 'Card:00000000-0000-4000-8000-00000000dead';
    const auth = { amount: 1, currency: { code: 'USD' }, merchant };
    for (
      const path of [
        'credit_authorization',
        'financial_authorization',
        'financial_credit_authorization',
        'credit_authorization_advice',
      ]
    ) {
      expectError(await simulate(ghost, path, auth), 404, 'REFERENCE_NOT_FOUND');
      expectError(await simulate(created.id, path, { amount: -1 }), 400, 'INVALID_INPUT');
    }
    expectError(await simulate(ghost, 'balance_inquiry', { merchant }), 404, 'REFERENCE_NOT_FOUND');
    expectError(await simulate(created.id, 'balance_inquiry', {}), 400, 'INVALID_INPUT');
    const missing = { cardTransactionId: 'CardTransaction:00000000-0000-4000-8000-00000000dead' };
    expectError(
      await simulate(created.id, 'authorization_advice', { ...missing, amount: 5 }),
      404,
      'REFERENCE_NOT_FOUND',
    );
    expectError(await simulate(created.id, 'return_reversal', missing), 404, 'REFERENCE_NOT_FOUND');
    expectError(await simulate(created.id, 'return_reversal', {}), 400, 'INVALID_INPUT');
  });
});
