import {
  expectError,
  newKeyPair,
  provisionWallet,
  signedHeaders,
  signInWithOtp,
  stamp,
  type WalletFixture,
} from './wallet-client';
import { startWalletTestSystem, type WalletTestSystem } from './wallet-test-system';

const CHALLENGE_TTL_MS = 1000;
const SESSION_TTL_MS = 2500;
let sys: WalletTestSystem;
let wallet: WalletFixture;
beforeAll(async () => {
  sys = await startWalletTestSystem({
    SIGNED_RETRY_TTL_MS: String(CHALLENGE_TTL_MS),
    WALLET_SESSION_TTL_MS: String(SESSION_TTL_MS),
  });
  wallet = await provisionWallet(sys);
});
afterAll(async () => {
  await sys.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a retry after expiresAt: 401 SIGNED_RETRY_EXPIRED; a fresh export works; an expired session can't", async () => {
  const signer = await signInWithOtp(sys.api, wallet.emailCredentialId);
  const sessionEnds = Date.parse(signer.session.expiresAt);
  expect(sessionEnds - Date.now()).toBeLessThanOrEqual(SESSION_TTL_MS);
  const path = `/internal-accounts/${wallet.accountId}/export`;
  const json = { clientPublicKey: newKeyPair().publicKeyUncompressed };

  const stale = await sys.api(path, { method: 'POST', json });
  expect(Date.parse(stale.body.expiresAt) - Date.now()).toBeLessThanOrEqual(CHALLENGE_TTL_MS);
  const staleHeaders = signedHeaders(await stamp(signer.key, stale.body.payloadToSign), stale.body.requestId);
  await sleep(Date.parse(stale.body.expiresAt) - Date.now() + 50);
  expectError(await sys.api(path, { method: 'POST', json, headers: staleHeaders }), 401, 'SIGNED_RETRY_EXPIRED');
  // Still expired on a second try: the challenge is never revived.
  expectError(await sys.api(path, { method: 'POST', json, headers: staleHeaders }), 401, 'SIGNED_RETRY_EXPIRED');

  const fresh = await sys.api(path, { method: 'POST', json });
  const done = await sys.api(path, {
    method: 'POST',
    json,
    headers: signedHeaders(await stamp(signer.key, fresh.body.payloadToSign), fresh.body.requestId),
  });
  expect(done.status).toBe(200);

  await sleep(sessionEnds - Date.now() + 50);
  const sessions = await sys.api(`/auth/sessions?accountId=${wallet.accountId}`);
  expect(sessions.body.data.map((s: { id: string }) => s.id)).not.toContain(signer.session.id);
  const late = await sys.api(path, { method: 'POST', json });
  expectError(
    await sys.api(path, {
      method: 'POST',
      json,
      headers: signedHeaders(await stamp(signer.key, late.body.payloadToSign), late.body.requestId),
    }),
    401,
    'WALLET_SIGNATURE_INVALID',
  );
  expectError(await sys.api(`/auth/sessions/${signer.session.id}`, { method: 'DELETE' }), 404, 'REFERENCE_NOT_FOUND');
});
