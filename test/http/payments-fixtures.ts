import { externalAccountBody, INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import type { TestSystem } from '../system-harness';

let seq = 0;

export function expectError(res: { status: number; body: any }, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.body.status).toBe(status);
}

/** A quote that can no longer be executed: 409 CONFLICT, the case in `details.reason`. */
export function expectQuoteConflict(
  res: { status: number; body: any },
  reason: 'QUOTE_EXPIRED' | 'QUOTE_ALREADY_EXECUTED',
): void {
  expectError(res, 409, 'CONFLICT');
  expect(res.body.details?.reason).toBe(reason);
}

/** A customer who accepted the current End User Terms, with its USD internal account. */
export async function payingCustomer(sys: TestSystem, options: { acceptTerms?: boolean; umaAddress?: string } = {}) {
  const terms = await sys.api('/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const created = await sys.api('/customers', {
    method: 'POST',
    json: {
      ...INDIVIDUAL_CUSTOMER,
      platformCustomerId: `payer-${process.pid}-${seq++}`,
      ...(options.acceptTerms === false ? {} : { endUserTermsConsent: consent }),
      ...(options.umaAddress ? { umaAddress: options.umaAddress } : {}),
    },
  });
  expect(created.status).toBe(201);
  const accounts = await sys.api(
    `/customers/internal-accounts?customerId=${created.body.id}&type=INTERNAL_FIAT&currency=USD`,
  );
  expect(accounts.status).toBe(200);
  return {
    customerId: created.body.id as string,
    usdAccountId: accounts.body.data[0].id as string,
    customer: created.body,
  };
}

export async function externalAccount(
  sys: TestSystem,
  customerId: string,
  variant: Parameters<typeof externalAccountBody>[0] = 'MXN_ACCOUNT',
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await sys.api('/customers/external-accounts', {
    method: 'POST',
    json: { ...externalAccountBody(variant), customerId, ...extra },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

export async function fund(sys: TestSystem, accountId: string, amount: number) {
  const res = await sys.api(`/sandbox/internal-accounts/${accountId}/fund`, { method: 'POST', json: { amount } });
  expect(res.status).toBe(200);
  return res.body;
}

export async function balanceOf(sys: TestSystem, customerId: string, accountId: string): Promise<number> {
  const res = await sys.api(`/customers/internal-accounts?customerId=${customerId}`);
  return res.body.data.find((a: { id: string }) => a.id === accountId).balance.amount;
}

export function accountQuote(source: string, destination: string, amount: number, extra: Record<string, unknown> = {}) {
  return {
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: destination },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
    ...extra,
  };
}

/** Polls GET /transactions/{id} until `done` holds (settlement is asynchronous). */
export async function transactionWhen(
  sys: TestSystem,
  id: string,
  done: (t: any) => boolean,
  timeoutMs = 10_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await sys.api(`/transactions/${id}`);
    expect(res.status).toBe(200);
    if (done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`transaction ${id} stayed ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Settles in tens of milliseconds instead of seconds. */
export const FAST_SETTLEMENT = { SANDBOX_SETTLEMENT_STEP_MS: '30', SETTLEMENT_POLL_MS: '10' };

/** A client of a system process's REST API (`/2025-10-13`), as the process tests write it. */
export type ProcessApi = (path: string, body?: unknown, method?: string) => Promise<{ status: number; body: any }>;

/**
 * Through a system process's REST API: an individual customer who accepted the End User Terms, its
 * USD account funded with 50,000 cents (sandbox), and an MXN bank account (CLABE) to pay to.
 */
export async function payerWithMxnPayee(api: ProcessApi, customer: Record<string, unknown>) {
  const terms = await api('/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const payer = await api('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Jane Smith',
    email: 'jane@example.com',
    ...customer,
    endUserTermsConsent: consent,
  });
  expect([payer.status, payer.body]).toEqual([201, expect.objectContaining({ id: expect.any(String) })]);
  const accounts = `/customers/internal-accounts?customerId=${payer.body.id}&type=INTERNAL_FIAT&currency=USD`;
  const source: string = (await api(accounts)).body.data[0].id;
  expect((await api(`/sandbox/internal-accounts/${source}/fund`, { amount: 50_000 })).status).toBe(200);
  const payee = await api('/customers/external-accounts', {
    customerId: payer.body.id,
    currency: 'MXN',
    accountInfo: {
      accountType: 'MXN_ACCOUNT',
      clabeNumber: '032180000118359719',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Lopez' },
    },
  });
  return { payerId: payer.body.id as string, source, payeeId: payee.body.id as string };
}
