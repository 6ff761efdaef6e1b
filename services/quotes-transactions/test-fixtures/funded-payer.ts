import { wire } from '../../../test/fixtures/wire';
import { asPlatform, mxnAccountInfo, PLATFORM, startPaymentsHarness, type PaymentsHarness } from './payments-harness';

export interface FundedPayer {
  h: PaymentsHarness;
  customer: string;
  /** The customer's USD internal account, funded with the amount asked for. */
  usd: string;
  /** The customer's MXN external account (a CLABE), the usual payee. */
  mxnAccount: string;
}

/** A harness with one customer of PLATFORM who holds a funded USD account and an MXN payee. */
export async function startFundedPayer(amount: number): Promise<FundedPayer> {
  const h = await startPaymentsHarness();
  const customer = h.accounts.addCustomer(PLATFORM, { umaAddress: '$ana@sandbox.example.com' });
  const usd = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId: customer });
  const mxnAccount = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'MXN',
    customerId: customer,
    accountInfo: mxnAccountInfo(),
  });
  await h.sandbox.fundInternalAccount({ accountId: usd, ...wire({ amount }) }, asPlatform);
  return { h, customer, usd, mxnAccount };
}
