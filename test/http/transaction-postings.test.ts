import { startTestSystem, type TestSystem } from '../system-harness';
import { agentCustomer, quoteBody } from './agent-fixtures';
import { FAST_SETTLEMENT, transactionWhen } from './payments-fixtures';

/** GET /transactions/{id}/postings (our extension): the ledger postings a payment's steps applied. */
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
}, 120_000);
afterAll(() => sys?.stop());

test(
  "a completed payment's postings: the debit from its source, "
    + 'then the settlement; each step balances per currency',
  async () => {
    const c = await agentCustomer(sys, 100_000);
    const quote = await sys.api('/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 10_000) });
    expect(quote.status).toBe(201);
    const { transactionId } = (await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })).body;
    const tx = await transactionWhen(sys, transactionId, (t) => t.status === 'COMPLETED');

    const res = await sys.api(`/transactions/${transactionId}/postings`);
    expect(res.status).toBe(200);
    const postings: Array<{ step: string; account: string; currency: string; amount: number }> = res.body.data;
    expect([...new Set(postings.map((p) => p.step))]).toEqual(['debit', 'settle']);
    expect(postings[0]).toEqual({
      step: 'debit',
      account: c.usdAccountId,
      currency: 'USD',
      amount: -tx.sentAmount.amount,
    });
    for (const step of ['debit', 'settle']) {
      const sums = new Map<string, number>();
      for (const p of postings.filter((q) => q.step === step)) {
        sums.set(p.currency, (sums.get(p.currency) ?? 0) + p.amount);
      }
      expect([...sums.values()].every((sum) => sum === 0)).toBe(true);
    }
    // The receiving side: MXN left the system through the settlement account, as much as the payee receives.
    expect(postings.filter((p) => p.currency === 'MXN' && p.account.startsWith('ledger:fx:')).map((p) => p.amount))
      .toEqual([-tx.receivedAmount.amount]);
    // The balance moved by exactly the postings on the account.
    const balance =
      (await sys.api(`/customers/internal-accounts?customerId=${c.customerId}&currency=USD`)).body.data[0].balance
        .amount;
    expect(balance).toBe(
      100_000 + postings.filter((p) => p.account === c.usdAccountId).reduce((s, p) => s + p.amount, 0),
    );
  },
);

test("an unknown transaction is 404; another platform's is not found either", async () => {
  const missing = await sys.api('/transactions/Transaction:00000000-0000-4000-8000-000000000000/postings');
  expect(missing.status).toBe(404);
  const c = await agentCustomer(sys, 100_000);
  const quote = await sys.api('/quotes', { method: 'POST', json: quoteBody(c.usdAccountId, c.mxnPayee, 1_000) });
  const { transactionId } = (await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' })).body;
  const other = await sys.createPlatform();
  expect((await sys.api(`/transactions/${transactionId}/postings`, { auth: other.auth })).status).toBe(404);
});
