import { wire } from '../../../../test/fixtures/wire';
import type { AppError } from '../../../../lib/errors';
import {
  asPlatform,
  eventually,
  PLATFORM,
  startPaymentsHarness,
  usdAccountInfo,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';

let h: PaymentsHarness;

beforeAll(async () => {
  h = await startPaymentsHarness();
});
afterAll(async () => {
  await h?.stop();
});

test('AuditLedger audits every platform for an operator, clean after funding and payments; platforms: no', async () => {
  const customerId = h.accounts.addCustomer(PLATFORM, { platformCustomerId: 'audit-1' });
  const usd = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId });
  const usdBank = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'USD',
    customerId,
    accountInfo: usdAccountInfo(),
  });
  await h.sandbox.fundInternalAccount({ accountId: usd, ...wire({ amount: 100_000 }) }, asPlatform);
  const out = (await h.quotes.createTransferOut({
    ...wire({ source: { accountId: usd }, destination: { accountId: usdBank, paymentRail: 'ACH' }, amount: 2_500 }),
  }, asPlatform)).transaction!;
  await eventually(async () => {
    const t = (await h.transactions.getTransaction({ transactionId: out.id }, asPlatform)).transaction!;
    return t.status === 'COMPLETED' ? t : undefined;
  }, 15_000);

  const audit = await h.ledger.auditLedger({});
  expect(audit).toMatchObject({ clean: true, problems: [], inFlight: [] });
  expect(audit.counts).toMatchObject({ journalSteps: 1, payments: 1, internalAccounts: 1 });

  const refused = (await h.ledger.auditLedger({}, asPlatform).then(() => undefined, (e: unknown) => e)) as AppError;
  expect(refused.code).toBe('FORBIDDEN');
});
