import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { generateEnclaveSigningKey } from '../../domain/wallet-crypto/enclave-key';
import { hpkeOpen } from '../../domain/wallet-crypto/hpke';
import { generateP256KeyPair } from '../../domain/wallet-crypto/p256-keys';
import { turnkeyCrypto } from '../../domain/wallet-crypto/turnkey-client.fixture';
import { createEmbeddedWalletProvider, FAILING_EMAIL_DOMAIN } from './embedded-wallet-provider';

const ACCOUNT = 'InternalAccount:00000000-0000-4000-8000-000000000201';

function provider(settleMs: number, clock: { now: number }) {
  const store = createEmbeddedDocumentStore();
  const enclave = generateEnclaveSigningKey();
  const instance = createEmbeddedWalletProvider({
    store,
    settleMs,
    storageKey: new Uint8Array(32).fill(7),
    enclavePrivateKey: enclave.privateKey,
    now: () => new Date(clock.now),
  });
  return { provider: instance, store, enclave };
}

describe('the embedded wallet provider', () => {
  test('settles an operation settleMs after its first submission; re-submitting is safe', async () => {
    const clock = { now: 1_000_000 };
    const { provider: p } = provider(500, clock);
    const op = { id: 'Operation:1', kind: 'REVOKE_SESSION' as const, accountId: ACCOUNT, params: {} };
    expect(await p.submit(op)).toEqual({ status: 'PENDING' });
    clock.now += 499;
    expect(await p.submit(op)).toEqual({ status: 'PENDING' });
    clock.now += 1;
    expect(await p.submit(op)).toEqual({ status: 'SETTLED', result: {} });
  });

  test('a session key made by the provider is sealed to the client key; the same one is answered again', async () => {
    const { provider: p } = provider(0, { now: Date.now() });
    const client = turnkeyCrypto.generateP256KeyPair();
    const op = {
      id: 'Operation:2',
      kind: 'CREATE_SESSION' as const,
      accountId: ACCOUNT,
      params: { clientPublicKey: client.publicKeyUncompressed },
    };
    const first = await p.submit(op);
    if (first.status !== 'SETTLED') throw new Error('not settled');
    expect(await p.submit(op)).toEqual(first);
    const privateKey = turnkeyCrypto.decryptCredentialBundle(
      first.result.encryptedSessionSigningKey,
      client.privateKey,
    );
    expect(Buffer.from(turnkeyCrypto.getPublicKey(privateKey, true)).toString('hex')).toBe(
      first.result.sessionPublicKey,
    );
  });

  test('an export is sealed afresh each time, signed by the enclave key, and never stored', async () => {
    const { provider: p, store, enclave } = provider(0, { now: Date.now() });
    const client = generateP256KeyPair();
    const op = {
      id: 'Operation:3',
      kind: 'EXPORT_WALLET' as const,
      accountId: ACCOUNT,
      params: { clientPublicKey: client.publicKeyUncompressed },
    };
    const a = await p.submit(op);
    const b = await p.submit(op);
    if (a.status !== 'SETTLED' || b.status !== 'SETTLED') throw new Error('not settled');
    expect(a.result.encryptedWalletCredentials).not.toBe(b.result.encryptedWalletCredentials);
    const bundle = JSON.parse(a.result.encryptedWalletCredentials);
    expect(bundle).toMatchObject({ version: 'v1.0.0', enclaveQuorumPublic: enclave.publicKey });
    const data = JSON.parse(Buffer.from(bundle.data, 'hex').toString());
    expect(data.organizationId).toBe(ACCOUNT);
    const secret = await hpkeOpen({
      encappedPublic: Buffer.from(data.encappedPublic, 'hex'),
      ciphertext: Buffer.from(data.ciphertext, 'hex'),
      recipientPrivateKey: client.privateKey,
    });
    expect(secret).toHaveLength(32);
    const stored = JSON.stringify(await store.collection('wallet_provider_operations').find({}));
    expect(stored).not.toContain(data.ciphertext);
    expect(stored).not.toContain('encryptedWalletCredentials');
    // The wallet secret itself is kept sealed with the storage key.
    expect(JSON.stringify(await store.collection('wallet_provider_secrets').find({}))).not.toContain(
      Buffer.from(secret).toString('hex'),
    );
  });

  test(`email updates to @${FAILING_EMAIL_DOMAIN} fail (the sandbox trigger for 424)`, async () => {
    const { provider: p } = provider(0, { now: Date.now() });
    const op = (id: string, email: string) => ({
      id,
      kind: 'UPDATE_USER_EMAIL' as const,
      accountId: ACCOUNT,
      params: { email },
    });
    expect(await p.submit(op('Operation:4', `x@${FAILING_EMAIL_DOMAIN}`))).toEqual({
      status: 'FAILED',
      reason: 'EMAIL_UPDATE_REJECTED',
    });
    expect(await p.submit(op('Operation:5', 'x@example.com'))).toEqual({ status: 'SETTLED', result: {} });
  });
});
