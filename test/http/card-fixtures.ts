import type { TestSystem } from '../system-harness';
import { chooseOutcome, createCustomer } from './kyc-fixtures';

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A customer approved through the hosted KYC page, with its USD internal account. */
export async function approvedCardholder(sys: TestSystem, fields: Record<string, unknown> = {}) {
  const customer = await createCustomer(sys, { fullName: 'Card Holder', ...fields });
  const link = await sys.api(`/customers/${customer.id}/kyc-link`, {
    method: 'POST',
    json: { redirectUri: 'https://app.example.com/done' },
  });
  expect(link.status).toBe(201);
  expect((await chooseOutcome(sys, link.body.kycUrl, 'APPROVE')).status).toBe(303);
  await until(
    () => sys.api(`/customers/${customer.id}`),
    (r) => r.body.kycStatus === 'APPROVED',
    `customer ${customer.id} KYC`,
  );
  return { customerId: customer.id as string, usdAccountId: await usdAccountOf(sys, customer.id) };
}

export async function usdAccountOf(sys: TestSystem, customerId: string): Promise<string> {
  const accounts = await sys.api(
    `/customers/internal-accounts?customerId=${customerId}&type=INTERNAL_FIAT&currency=USD`,
  );
  expect(accounts.status).toBe(200);
  return accounts.body.data[0].id;
}

/** Polls GET /cards/{id} until `done` holds (provisioning is asynchronous). */
export function cardWhen(sys: TestSystem, id: string, done: (card: any) => boolean) {
  return until(async () => (await sys.api(`/cards/${id}`)).body, done, `card ${id}`);
}
