import { randomUUID } from 'node:crypto';
import type { TestSystem } from '../system-harness';

export interface WalletCustomer {
  customerId: string;
  email: string;
  walletId: string;
  emailCredentialId: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `read` until it answers a value (the accounts service provisions wallets as the customer is written). */
async function eventually<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export const newEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

/** The customer's EMAIL_OTP credential (nickname included), as list credentials shows it. */
export async function emailCredentialOf(
  sys: TestSystem,
  walletId: string,
): Promise<{ id: string; nickname: string } | undefined> {
  const listed = await sys.api(`/auth/credentials?accountId=${walletId}`);
  return listed.body.data?.find((c: { type: string }) => c.type === 'EMAIL_OTP');
}

/**
 * A customer created over REST on a platform with embedded wallets: the accounts service opens
 * its EMBEDDED_WALLET account and has the auth service provision it with an EMAIL_OTP credential.
 */
export async function walletCustomer(sys: TestSystem, email = newEmail('wallet')): Promise<WalletCustomer> {
  const created = await sys.api('/customers', {
    method: 'POST',
    json: { customerType: 'INDIVIDUAL', email, fullName: 'Ana Lima' },
  });
  if (created.status !== 201) {
    throw new Error(`customer create answered ${created.status} ${JSON.stringify(created.body)}`);
  }
  const customerId: string = created.body.id;
  const wallet = await eventually(async () => {
    const listed = await sys.api(`/customers/internal-accounts?customerId=${customerId}&type=EMBEDDED_WALLET`);
    const account = listed.body.data?.[0];
    return account?.status === 'ACTIVE' ? account : undefined;
  }, 'the EMBEDDED_WALLET account');
  const credential = await eventually(() => emailCredentialOf(sys, wallet.id), 'the EMAIL_OTP credential');
  return { customerId, email, walletId: wallet.id, emailCredentialId: credential.id };
}
