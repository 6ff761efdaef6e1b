import { wire } from '../../../test/fixtures/wire';
import { SANDBOX_INVALID_SIGNATURE } from '../domain/ownership-signature';
import { startAccountsService, type AccountsHarness } from '../test-fixtures/accounts-service-harness';
import { evmWallet } from '../test-fixtures/evm-wallet';
import { customerFieldsOf, externalAccountBody, externalAccountRequest } from '../test-fixtures/request-bodies';

let h: AccountsHarness;
let platform: { platformId: string };
let customerId: string;
beforeAll(async () => {
  h = await startAccountsService({ ACCOUNTS_SANDBOX_LIVENESS_DELAY_MS: '0' });
  platform = await h.newPlatform();
  customerId =
    (await h.client.createCustomer({ customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) }, platform)).customer!
      .id;
});
afterAll(() => h.stop());

async function firstPartyWallet(address: string, accountType = 'ETHEREUM_WALLET', extra: Record<string, unknown> = {}) {
  const body = {
    currency: 'USDC',
    ownershipType: 'FIRST_PARTY',
    customerId,
    accountInfo: { accountType, address, ...extra },
  };
  return (await h.client.createExternalAccount(externalAccountRequest(body), platform)).account!;
}

const statusEvents = async (id: string) => {
  const doc = await h.store.collection('external_accounts').findOne({ _id: id });
  return (doc?._outbox as Array<{ type: string; data: { previousStatus: string; status: string } }>)
    .filter((e) => e.type === 'EXTERNAL_ACCOUNT.STATUS_UPDATED').map((e) =>
      `${e.data.previousStatus}->${e.data.status}`
    );
};
const challenge = (id: string, method: string, owner = 'CUSTOMER') =>
  h.client.startOwnershipChallenge({ id, owner, ...wire({ method }) }, platform);
const verify = (id: string, signature: string, owner = 'CUSTOMER') =>
  h.client.verifyOwnership({ id, owner, ...wire({ signature }) }, platform);

describe('wallet signature (EVM: EIP-191 personal_sign)', () => {
  test('the signed challenge message makes the account ACTIVE, with its event', async () => {
    const wallet = evmWallet();
    const account = await firstPartyWallet(wallet.checksumAddress);
    const { challenge: issued } = await challenge(account.id, 'WALLET_SIGNATURE');
    expect(issued).toEqual({
      method: 'WALLET_SIGNATURE',
      messageToSign: expect.stringContaining(wallet.checksumAddress),
      expiresAt: expect.any(String),
    });
    const { account: verified } = await verify(account.id, wallet.personalSign(issued!.messageToSign!));
    expect(verified).toMatchObject({ id: account.id, status: 'ACTIVE' });
    expect(await statusEvents(account.id)).toEqual(['PENDING_OWNERSHIP_VERIFICATION->ACTIVE']);
    await expect(challenge(account.id, 'WALLET_SIGNATURE')).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  test("another key's signature: INVALID_INPUT, the account UNVERIFIED; a new challenge: pending again", async () => {
    const wallet = evmWallet();
    const account = await firstPartyWallet(wallet.address);
    const { challenge: issued } = await challenge(account.id, 'WALLET_SIGNATURE');
    const err = await verify(account.id, evmWallet().personalSign(issued!.messageToSign!)).catch((e) => e);
    expect([err.code, err.details.errors[0].field]).toEqual(['INVALID_INPUT', 'signature']);
    expect((await h.client.getExternalAccount({ id: account.id }, platform)).account!.status).toBe('UNVERIFIED');
    await expect(verify(account.id, wallet.personalSign(issued!.messageToSign!))).rejects.toMatchObject({
      code: 'CONFLICT',
    });

    const { challenge: retry } = await challenge(account.id, 'WALLET_SIGNATURE');
    expect(retry!.messageToSign).not.toBe(issued!.messageToSign);
    await expect(verify(account.id, wallet.personalSign(issued!.messageToSign!))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await challenge(account.id, 'WALLET_SIGNATURE');
    expect(await statusEvents(account.id)).toEqual([
      'PENDING_OWNERSHIP_VERIFICATION->UNVERIFIED',
      'UNVERIFIED->PENDING_OWNERSHIP_VERIFICATION',
      'PENDING_OWNERSHIP_VERIFICATION->UNVERIFIED',
      'UNVERIFIED->PENDING_OWNERSHIP_VERIFICATION',
    ]);
  });

  test('a signature after expiresAt: INVALID_INPUT and UNVERIFIED', async () => {
    const short = await startAccountsService({ ACCOUNTS_OWNERSHIP_CHALLENGE_TTL_MS: '1000' });
    const p = await short.newPlatform();
    const owner =
      (await short.client.createCustomer({ customer: customerFieldsOf({ customerType: 'INDIVIDUAL' }) }, p)).customer!
        .id;
    const wallet = evmWallet();
    const body = {
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      customerId: owner,
      accountInfo: { accountType: 'BASE_WALLET', address: wallet.address },
    };
    const { account } = await short.client.createExternalAccount(externalAccountRequest(body), p);
    const { challenge: issued } = await short.client.startOwnershipChallenge({
      id: account!.id,
      owner: 'CUSTOMER',
      ...wire({ method: 'WALLET_SIGNATURE' }),
    }, p);
    await new Promise((r) => setTimeout(r, 1100));
    const err = await short.client.verifyOwnership({
      id: account!.id,
      owner: 'CUSTOMER',
      ...wire({ signature: wallet.personalSign(issued!.messageToSign!) }),
    }, p).catch((e) => e);
    expect([err.code, err.details.errors[0].message]).toEqual([
      'INVALID_INPUT',
      'The challenge expired; start a new challenge',
    ]);
    expect((await short.client.getExternalAccount({ id: account!.id }, p)).account!.status).toBe('UNVERIFIED');
    await short.stop();
  });

  test('verify without an outstanding challenge is CONFLICT; a missing signature is INVALID_INPUT', async () => {
    const account = await firstPartyWallet(evmWallet().address);
    await expect(verify(account.id, '0x00')).rejects.toMatchObject({ code: 'CONFLICT' });
    const err = await h.client.verifyOwnership({ id: account.id, owner: 'CUSTOMER', ...wire({}) }, platform).catch((
      e,
    ) => e);
    expect([err.code, err.details.errors]).toEqual(['INVALID_INPUT', [{ field: 'signature', message: 'is required' }]]);
  });
});

describe('simulated paths (sandbox)', () => {
  test('a Solana wallet: any signature but the magic one', async () => {
    const ok = await firstPartyWallet('7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', 'SOLANA_WALLET');
    await challenge(ok.id, 'WALLET_SIGNATURE');
    await expect(verify(ok.id, '3yZe7d...')).resolves.toMatchObject({ account: { status: 'ACTIVE' } });
    const bad = await firstPartyWallet('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', 'TRON_WALLET');
    await challenge(bad.id, 'WALLET_SIGNATURE');
    await expect(verify(bad.id, SANDBOX_INVALID_SIGNATURE)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  test('LIVENESS: a hosted link; the outcome comes later (ACTIVE, or UNVERIFIED for the magic name)', async () => {
    const ok = await firstPartyWallet(evmWallet().address);
    const { challenge: issued } = await challenge(ok.id, 'LIVENESS');
    expect(issued).toEqual({
      method: 'LIVENESS',
      verificationLink: expect.stringMatching(/^https:\/\/liveness\.sandbox\.local\/session\/[0-9a-f-]{36}$/),
      expiresAt: expect.any(String),
    });
    await expect(verify(ok.id, '0x00')).rejects.toMatchObject({ code: 'CONFLICT' });
    const failing = await firstPartyWallet(evmWallet().address, 'POLYGON_WALLET', {
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Sandbox Liveness Failed' },
    });
    await challenge(failing.id, 'LIVENESS');
    expect((await h.repair.sweep({ graceMs: 0 })).livenessCompleted).toBe(2);
    expect((await h.client.getExternalAccount({ id: ok.id }, platform)).account!.status).toBe('ACTIVE');
    expect((await h.client.getExternalAccount({ id: failing.id }, platform)).account!.status).toBe('UNVERIFIED');
    expect(await statusEvents(failing.id)).toEqual(['PENDING_OWNERSHIP_VERIFICATION->UNVERIFIED']);
  });

  test('outside the sandbox LIVENESS and non-EVM signatures are NOT_IMPLEMENTED', async () => {
    const live = await startAccountsService({ ACCOUNTS_SANDBOX: 'false' });
    const p = await live.newPlatform();
    const body = {
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
    };
    const { account } = await live.client.createPlatformExternalAccount(externalAccountRequest(body), p);
    await expect(
      live.client.startOwnershipChallenge({
        id: account!.id,
        owner: 'PLATFORM',
        ...wire({ method: 'WALLET_SIGNATURE' }),
      }, p),
    ).rejects.toMatchObject({ code: 'NOT_IMPLEMENTED' });
    await live.stop();
  });
});

describe('which accounts can be challenged', () => {
  test('a bank account, THIRD_PARTY or verified wallet: CONFLICT; other owner kind, platform: NOT_FOUND', async () => {
    const bank = (await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('USD_ACCOUNT', { customerId, ownershipType: 'FIRST_PARTY' })),
      platform,
    )).account!;
    await expect(challenge(bank.id, 'WALLET_SIGNATURE')).rejects.toMatchObject({ code: 'CONFLICT' });
    const third = (await h.client.createExternalAccount(
      externalAccountRequest(externalAccountBody('BASE_WALLET', { customerId, ownershipType: 'THIRD_PARTY' })),
      platform,
    )).account!;
    await expect(challenge(third.id, 'WALLET_SIGNATURE')).rejects.toMatchObject({ code: 'CONFLICT' });
    const wallet = await firstPartyWallet(evmWallet().address);
    await expect(challenge(wallet.id, 'WALLET_SIGNATURE', 'PLATFORM')).rejects.toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
    });
    await expect(
      h.client.startOwnershipChallenge(
        { id: wallet.id, owner: 'CUSTOMER', ...wire({ method: 'WALLET_SIGNATURE' }) },
        await h.newPlatform(),
      ),
    ).rejects.toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
    const err = await challenge(wallet.id, 'SELFIE').catch((e) => e);
    expect([err.code, err.details.errors[0].field]).toEqual(['INVALID_INPUT', 'method']);
  });

  test('a platform wallet is verified through the platform path', async () => {
    const wallet = evmWallet();
    const body = {
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'ETHEREUM_WALLET', address: wallet.address },
    };
    const { account } = await h.client.createPlatformExternalAccount(externalAccountRequest(body), platform);
    const { challenge: issued } = await challenge(account!.id, 'WALLET_SIGNATURE', 'PLATFORM');
    await expect(verify(account!.id, wallet.personalSign(issued!.messageToSign!), 'PLATFORM')).resolves.toMatchObject({
      account: { status: 'ACTIVE' },
    });
  });
});
