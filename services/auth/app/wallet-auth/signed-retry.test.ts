import { AppError } from '../../../../lib/errors';
import { turnkeyCrypto } from '../../domain/wallet-crypto/turnkey-client.fixture';
import { createSignedRetryDocumentStore } from '../../store/wallet-auth/signed-retry-document-store';
import { createSignedRetry } from './signed-retry';
import {
  createScriptedProvider,
  createWalletAuthForTest,
  PLATFORM,
  stampWith,
  walletWithSession,
} from './wallet-auth.fixture';

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (err: AppError) => err.code);

describe('at most once', () => {
  test('20 concurrent identical retries: one provider operation, one session, the same answer', async () => {
    let scripted!: ReturnType<typeof createScriptedProvider>;
    const { auth } = await createWalletAuthForTest({
      provider: (inner) => (scripted = createScriptedProvider(inner)).provider,
    });
    const wallet = await walletWithSession(auth);
    const body = { clientPublicKey: turnkeyCrypto.generateP256KeyPair().publicKeyUncompressed };
    const first = await auth.sessions.refresh(PLATFORM, wallet.session.id, body, undefined);
    if (first.kind !== 'challenge') throw new Error('expected a challenge');
    const signature = {
      stamp: await stampWith(wallet.key, first.challenge.payloadToSign),
      requestId: first.challenge.requestId,
    };
    const before = scripted.submissions.length;

    const answers = await Promise.all(
      Array.from({ length: 20 }, () => auth.sessions.refresh(PLATFORM, wallet.session.id, body, signature)),
    );

    const operations = new Set(scripted.submissions.slice(before).map((op) => op.id));
    expect(operations.size).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({
      kind: 'result',
      result: { session: { id: expect.stringMatching(/^Session:/) } },
    });
    expect(await auth.sessions.list(PLATFORM, wallet.accountId)).toHaveLength(2);
  });

  test('the claim is one conditional write: of 20 concurrent claims exactly one wins', async () => {
    const { store } = await createWalletAuthForTest();
    const records = createSignedRetryDocumentStore(store);
    const now = new Date();
    await records.insert({
      id: 'Request:1',
      platformId: PLATFORM,
      operation: 'x.y',
      targetId: 't',
      requestHash: 'h',
      payloadToSign: 'p',
      signer: { kind: 'none' },
      context: {},
      state: 'ISSUED',
      issuedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 60_000).toISOString(),
    });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      records.claim({
        id: 'Request:1',
        claim: { proof: `p${i}`, requestHash: 'h', claimedAt: now.toISOString() },
        run: { id: `Operation:${i}`, state: 'PENDING', external: false, startedAt: now.toISOString() },
        now,
      })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await records.find(PLATFORM, 'Request:1'))?.run?.id).toBe(results.find(Boolean)!.run!.id);
  });
});

describe('settlement', () => {
  test('PROCESSING while the provider is pending, then the reconciler settles it', async () => {
    let scripted!: ReturnType<typeof createScriptedProvider>;
    const { auth } = await createWalletAuthForTest({
      provider: (inner) => (scripted = createScriptedProvider(inner)).provider,
    });
    const wallet = await walletWithSession(auth);
    const body = { privateEnabled: true };
    const first = await auth.wallet.updatePrivacy(PLATFORM, wallet.accountId, body, undefined);
    if (first.kind !== 'challenge') throw new Error('expected a challenge');
    const signature = {
      stamp: await stampWith(wallet.key, first.challenge.payloadToSign),
      requestId: first.challenge.requestId,
    };
    scripted.setMode('pending');
    expect(await auth.wallet.updatePrivacy(PLATFORM, wallet.accountId, body, signature)).toEqual({
      kind: 'processing',
    });
    expect(await auth.runner.reconcile()).toBe(0);
    expect(await auth.wallet.privacyOf(PLATFORM, wallet.accountId)).toBe(false);
    scripted.setMode('settle');
    expect(await auth.runner.reconcile()).toBe(1);
    expect(await auth.wallet.privacyOf(PLATFORM, wallet.accountId)).toBe(true);
    expect(await auth.wallet.updatePrivacy(PLATFORM, wallet.accountId, body, signature)).toEqual({
      kind: 'result',
      result: { walletPrivacy: { accountId: wallet.accountId, privateEnabled: true } },
    });
  });

  test('a provider refusal is kept: every identical retry answers the same error', async () => {
    let scripted!: ReturnType<typeof createScriptedProvider>;
    const { auth } = await createWalletAuthForTest({
      provider: (inner) => (scripted = createScriptedProvider(inner)).provider,
    });
    const wallet = await walletWithSession(auth);
    const first = await auth.sessions.revoke(PLATFORM, wallet.session.id, {}, undefined);
    if (first.kind !== 'challenge') throw new Error('expected a challenge');
    const signature = {
      stamp: await stampWith(wallet.key, first.challenge.payloadToSign),
      requestId: first.challenge.requestId,
    };
    scripted.setMode('fail');
    expect(await codeOf(auth.sessions.revoke(PLATFORM, wallet.session.id, {}, signature))).toBe('INTERNAL_ERROR');
    scripted.setMode('settle');
    expect(await codeOf(auth.sessions.revoke(PLATFORM, wallet.session.id, {}, signature))).toBe('INTERNAL_ERROR');
    expect(await auth.sessions.list(PLATFORM, wallet.accountId)).toHaveLength(1);
  });

  test('an unreachable provider leaves the operation pending (PROCESSING), to be settled later', async () => {
    let down = true;
    const { auth } = await createWalletAuthForTest({
      provider: (inner) => ({
        submit: (
          op,
        ) => (down && op.kind === 'EXPORT_WALLET' ? Promise.reject(new Error('connection refused')) : inner.submit(op)),
      }),
    });
    const wallet = await walletWithSession(auth);
    const body = { clientPublicKey: turnkeyCrypto.generateP256KeyPair().publicKeyUncompressed };
    const first = await auth.wallet.exportWallet(PLATFORM, wallet.accountId, body, undefined);
    if (first.kind !== 'challenge') throw new Error('expected a challenge');
    const signature = {
      stamp: await stampWith(wallet.key, first.challenge.payloadToSign),
      requestId: first.challenge.requestId,
    };
    expect(await auth.wallet.exportWallet(PLATFORM, wallet.accountId, body, signature)).toEqual({ kind: 'processing' });
    down = false;
    const settled = await auth.wallet.exportWallet(PLATFORM, wallet.accountId, body, signature);
    expect(settled).toMatchObject({
      kind: 'result',
      result: { walletExport: { id: wallet.accountId, encryptedWalletCredentials: expect.any(String) } },
    });
  });
});

describe('pending challenges', () => {
  test('capped per wallet and per platform (429 with Retry-After); an expired challenge stops counting', async () => {
    const { store } = await createWalletAuthForTest();
    let now = new Date('2026-01-01T00:00:00Z');
    const signedRetry = createSignedRetry({
      store: createSignedRetryDocumentStore(store),
      sessions: {} as never,
      lock: {} as never,
      ttlMs: 60_000,
      now: () => now,
      maxPending: { perWallet: 3, perPlatform: 5 },
    });
    const begin = (accountId: string) =>
      signedRetry.begin({
        platformId: PLATFORM,
        operation: 'x.y',
        targetId: 't',
        body: {},
        signer: { kind: 'session', accountIds: [accountId] },
        context: { accountId },
      });
    const walletA = await Promise.allSettled(Array.from({ length: 4 }, () => begin('InternalAccount:A')));
    expect(walletA.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refusedA = (walletA.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
    expect(refusedA).toMatchObject({
      code: 'RATE_LIMITED',
      details: { quota: 'pending signed-retry challenges per wallet', retryAfterSeconds: 60 },
    });
    expect(await codeOf(begin('InternalAccount:B'))).toBe('OK');
    expect(await codeOf(begin('InternalAccount:B'))).toBe('OK');
    await expect(begin('InternalAccount:B')).rejects.toMatchObject({
      details: { quota: 'pending signed-retry challenges per platform', limit: 5 },
    });
    now = new Date(now.getTime() + 61_000);
    expect(await codeOf(begin('InternalAccount:B'))).toBe('OK');
  });
});
