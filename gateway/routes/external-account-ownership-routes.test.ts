import { startAccountsGateway } from '../../services/accounts/test-fixtures/accounts-gateway-harness';
import { evmWallet } from '../../services/accounts/test-fixtures/evm-wallet';

let gw: Awaited<ReturnType<typeof startAccountsGateway>>;
let auth: string;
let customerId: string;
beforeAll(async () => {
  gw = await startAccountsGateway({ ACCOUNTS_SANDBOX_LIVENESS_DELAY_MS: '0' });
  auth = (await gw.newPlatform()).auth;
  customerId = (await gw.api(auth, '/customers', { method: 'POST', json: { customerType: 'INDIVIDUAL' } })).body.id;
});
afterAll(() => gw.stop());

const walletBody = (address: string, extra: Record<string, unknown> = {}) => ({
  currency: 'USDC',
  ownershipType: 'FIRST_PARTY',
  accountInfo: { accountType: 'ETHEREUM_WALLET', address },
  ...extra,
});

describe('customer external account ownership verification', () => {
  test('challenge 201 with messageToSign; verify 200 with the ACTIVE account', async () => {
    const wallet = evmWallet();
    const account = (await gw.api(auth, '/customers/external-accounts', {
      method: 'POST',
      json: walletBody(wallet.address, { customerId }),
    })).body;
    expect(account.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const challenge = await gw.api(auth, `/customers/external-accounts/${account.id}/challenge`, {
      method: 'POST',
      json: { method: 'WALLET_SIGNATURE' },
    });
    expect([challenge.status, Object.keys(challenge.body).sort()]).toEqual([201, [
      'expiresAt',
      'messageToSign',
      'method',
    ]]);
    const verified = await gw.api(auth, `/customers/external-accounts/${account.id}/verify`, {
      method: 'POST',
      json: { signature: wallet.personalSign(challenge.body.messageToSign) },
    });
    expect([verified.status, verified.body.id, verified.body.status]).toEqual([200, account.id, 'ACTIVE']);
  });

  test('a wrong signature: 400, UNVERIFIED; verify again: 409; an unknown id: 404; a malformed id: 400', async () => {
    const account = (await gw.api(auth, '/customers/external-accounts', {
      method: 'POST',
      json: walletBody(evmWallet().address, { customerId }),
    })).body;
    const challenge = await gw.api(auth, `/customers/external-accounts/${account.id}/challenge`, {
      method: 'POST',
      json: { method: 'WALLET_SIGNATURE' },
    });
    const wrong = await gw.api(auth, `/customers/external-accounts/${account.id}/verify`, {
      method: 'POST',
      json: { signature: evmWallet().personalSign(challenge.body.messageToSign) },
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'INVALID_INPUT']);
    expect((await gw.api(auth, `/customers/external-accounts/${account.id}`)).body.status).toBe('UNVERIFIED');
    expect(
      (await gw.api(auth, `/customers/external-accounts/${account.id}/verify`, {
        method: 'POST',
        json: { signature: '0x00' },
      })).status,
    ).toBe(409);
    expect(
      (await gw.api(
        auth,
        '/customers/external-accounts/ExternalAccount:00000000-0000-4000-8000-000000000000/challenge',
        { method: 'POST', json: { method: 'LIVENESS' } },
      )).status,
    ).toBe(404);
    expect(
      (await gw.api(auth, '/customers/external-accounts/acct-1/challenge', {
        method: 'POST',
        json: { method: 'LIVENESS' },
      })).status,
    ).toBe(400);
  });

  test('a platform account: found only under /platform; LIVENESS answers a verification link', async () => {
    const account =
      (await gw.api(auth, '/platform/external-accounts', { method: 'POST', json: walletBody(evmWallet().address) }))
        .body;
    expect(
      (await gw.api(auth, `/customers/external-accounts/${account.id}/challenge`, {
        method: 'POST',
        json: { method: 'LIVENESS' },
      })).status,
    ).toBe(404);
    const challenge = await gw.api(auth, `/platform/external-accounts/${account.id}/challenge`, {
      method: 'POST',
      json: { method: 'LIVENESS' },
    });
    expect([challenge.status, challenge.body.method, typeof challenge.body.verificationLink]).toEqual([
      201,
      'LIVENESS',
      'string',
    ]);
    const verify = await gw.api(auth, `/platform/external-accounts/${account.id}/verify`, {
      method: 'POST',
      json: { signature: '0x00' },
    });
    expect([verify.status, verify.body.code]).toEqual([409, 'CONFLICT']);
  });
});
