import { randomBytes } from 'node:crypto';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { createAesGcmSealer } from '../../../../lib/sealing/aes-gcm-sealer';
import { createSandboxStablecoinProvider } from '../adapters/sandbox-stablecoin-provider';
import { createStablecoinDocumentStore } from '../store/stablecoin-document-store';
import { createProviderAccounts } from './provider-accounts';
import type { CredentialCheck, ProviderCredentials, StablecoinProvider } from './stablecoin-ports';

const caller = { platformId: 'Platform:1' };

function setup(verify?: (c: ProviderCredentials) => Promise<CredentialCheck>) {
  const documents = createEmbeddedDocumentStore();
  let now = new Date('2026-05-20T16:35:00Z');
  const sandbox = createSandboxStablecoinProvider({ store: documents, clock: () => now, stepMs: 1000 });
  const provider: StablecoinProvider = verify ? { ...sandbox, verifyCredentials: verify } : sandbox;
  const store = createStablecoinDocumentStore(documents);
  const accounts = createProviderAccounts({
    store,
    provider,
    sealer: createAesGcmSealer(randomBytes(32)),
    environment: 'SANDBOX',
    clock: () => now,
    reverifyAfterMs: 60_000,
  });
  return {
    documents,
    accounts,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

describe('provider account links', () => {
  test('the client secret is stored sealed, nowhere in plain text, and opens back for provider calls', async () => {
    const { documents, accounts } = setup();
    const linked = await accounts.link(caller, {
      provider: 'BRALE',
      apiClientId: 'client',
      apiClientSecret: 'the-very-secret',
    });
    const stored = await documents.collection('stablecoin_provider_accounts').findOne({ _id: linked.id });
    expect(JSON.stringify(stored)).not.toContain('the-very-secret');
    expect(accounts.credentialsOf(linked).clientSecret).toBe('the-very-secret');
    // Sealed to this record: the value copied onto another record does not open.
    expect(() => accounts.credentialsOf({ ...linked, id: 'StablecoinProviderAccount:other' })).toThrow();
  });

  test('a GET re-verifies only after the interval; bad credentials: link INVALID, lastVerifiedAt kept', async () => {
    let valid = true;
    const { accounts, advance } = setup(
      async () => (valid ? { valid: true, accountIds: ['acct'] } : { valid: false, reason: 'revoked' }),
    );
    const linked = await accounts.link(caller, { provider: 'BRALE', apiClientId: 'client', apiClientSecret: 's' });
    advance(30_000);
    valid = false;
    expect((await accounts.get(caller, linked.id)).status).toBe('ACTIVE');
    advance(30_000);
    const read = await accounts.get(caller, linked.id);
    expect(read).toMatchObject({ status: 'INVALID', lastVerifiedAt: linked.lastVerifiedAt });
    valid = true;
    advance(60_000);
    const again = await accounts.get(caller, linked.id);
    expect(again.status).toBe('ACTIVE');
    expect(Date.parse(again.lastVerifiedAt!)).toBeGreaterThan(Date.parse(linked.lastVerifiedAt!));
  });

  test('another platform does not see the link; a named account the credentials do not reach is refused', async () => {
    const { accounts } = setup();
    const linked = await accounts.link(caller, { provider: 'BRALE', apiClientId: 'client', apiClientSecret: 's' });
    await expect(accounts.get({ platformId: 'Platform:2' }, linked.id)).rejects.toMatchObject({
      code: 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    });
    await expect(
      accounts.link(caller, {
        provider: 'BRALE',
        apiClientId: 'client',
        apiClientSecret: 's',
        providerAccountId: 'elsewhere',
      }),
    )
      .rejects.toMatchObject({ code: 'STABLECOIN_PROVIDER_ACCOUNT_INVALID' });
    await expect(accounts.link(caller, { provider: 'BRALE', apiClientId: 'multi-client', apiClientSecret: 's' }))
      .rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
