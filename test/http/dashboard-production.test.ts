import { randomBytes } from 'node:crypto';
import { startTestSystem, type TestSystem } from '../system-harness';

/**
 * GRID_MODE=production: the dashboard's session offers no sandbox simulator, and the API refuses them with its cookie
 * too.
 */
let sys: TestSystem;
const key = () => randomBytes(32).toString('hex');
beforeAll(async () => {
  sys = await startTestSystem({
    components: ['gateway', 'auth', 'accounts', 'quotes-transactions'],
    env: {
      GRID_MODE: 'production',
      MESSAGE_DELIVERY_URL: 'http://127.0.0.1:9/messages',
      API_SECRET_PEPPER: key(),
      ACCOUNTS_PII_KEY: key(),
      WALLET_STORAGE_KEY: key(),
      WALLET_ENCLAVE_PRIVATE_KEY: key(),
      WEBHOOK_SIGNING_PRIVATE_KEY: key(),
      STABLECOIN_SECRET_KEY: key(),
      CARDS_DATA_KEY: key(),
      ACCOUNTS_UMA_DOMAIN: 'pay.example.com',
      ACCOUNTS_END_USER_TERMS_URL: 'https://example.com/terms',
    },
  });
}, 120_000);
afterAll(() => sys?.stop());

test(
  'the session says production, lists no simulator, and the '
    + 'simulators are refused with the session cookie and its CSRF token',
  async () => {
    const res = await fetch(`${sys.rootUrl}/dashboard/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tokenId: sys.sandbox.tokenId, clientSecret: sys.sandbox.clientSecret }),
    });
    expect(res.status).toBe(201);
    const session = (await res.json()) as { sandbox: boolean; operations: string[]; csrfToken: string };
    expect(session.sandbox).toBe(false);
    expect(session.operations).toContain('createQuote');
    for (
      const id of ['fundInternalAccount', 'simulateUmaReceive', 'simulateSend', 'sandboxSimulateCardAuthorization']
    ) {
      expect(session.operations).not.toContain(id);
    }
    const cookie = res.headers.get('set-cookie')!.split(';')[0];
    const calls: Array<[string, object]> = [
      ['/sandbox/internal-accounts/InternalAccount:00000000-0000-4000-8000-000000000001/fund', { amount: 100 }],
      ['/sandbox/uma/receive', {
        senderUmaAddress: '$alice@uma.example',
        receiverUmaAddress: '$bob@uma.example',
        customerId: 'Customer:00000000-0000-4000-8000-000000000001',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 100,
      }],
      ['/sandbox/cards/Card:00000000-0000-4000-8000-000000000001/simulate/authorization', {
        amount: 100,
        currency: { code: 'USD' },
        merchant: { descriptor: 'COFFEE' },
      }],
    ];
    for (const [path, body] of calls) {
      const refused = await fetch(`${sys.baseUrl}${path}`, {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect({ path, status: refused.status, code: ((await refused.json()) as { code: string }).code }).toEqual({
        path,
        status: 403,
        code: 'FORBIDDEN',
      });
    }
  },
);
