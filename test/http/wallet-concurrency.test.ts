import {
  expectError,
  newKeyPair,
  provisionWallet,
  signedHeaders,
  signInWithOtp,
  stamp,
  type KeyPair,
  type WalletFixture,
} from './wallet-client';
import { startWalletTestSystem, type WalletTestSystem } from './wallet-test-system';

let sys: WalletTestSystem;
let wallet: WalletFixture;
let signer: { session: any; key: KeyPair };
beforeAll(async () => {
  sys = await startWalletTestSystem();
  wallet = await provisionWallet(sys, { phone: '+14155550199' });
  signer = await signInWithOtp(sys.api, wallet.emailCredentialId);
});
afterAll(async () => {
  await sys.stop();
});

const sessionIds = async () =>
  (await sys.api(`/auth/sessions?accountId=${wallet.accountId}`)).body.data.map((s: { id: string }) =>
    s.id
  ) as string[];

test('20 identical signed retries at once start one operation and all get the same answer', async () => {
  const path = `/auth/sessions/${signer.session.id}/refresh`;
  const json = { clientPublicKey: newKeyPair().publicKeyUncompressed };
  const challenge = await sys.api(path, { method: 'POST', json });
  expect(challenge.status).toBe(202);
  const headers = signedHeaders(await stamp(signer.key, challenge.body.payloadToSign), challenge.body.requestId);
  const before = await sessionIds();

  const answers = await Promise.all(Array.from({ length: 20 }, () => sys.api(path, { method: 'POST', json, headers })));

  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
  const first = answers[0].body;
  expect(first).toMatchObject({
    id: expect.stringMatching(/^Session:/),
    encryptedSessionSigningKey: expect.any(String),
  });
  for (const answer of answers) expect(answer.body).toEqual(first);
  const after = await sessionIds();
  expect(after.filter((id) => !before.includes(id))).toEqual([first.id]);
});

test('20 identical retries adding a credential create exactly one', async () => {
  const json = { type: 'SMS_OTP', accountId: wallet.accountId };
  const challenge = await sys.api('/auth/credentials', { method: 'POST', json });
  const headers = signedHeaders(await stamp(signer.key, challenge.body.payloadToSign), challenge.body.requestId);
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => sys.api('/auth/credentials', { method: 'POST', json, headers })),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
  expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  const list = await sys.api(`/auth/credentials?accountId=${wallet.accountId}`);
  expect(list.body.data.filter((c: { type: string }) => c.type === 'SMS_OTP')).toHaveLength(1);
});

test('different requests racing on one Request-Id: one succeeds, the others get REQUEST_ID_ALREADY_USED', async () => {
  const path = `/internal-accounts/${wallet.accountId}/export`;
  const json = { clientPublicKey: newKeyPair().publicKeyUncompressed };
  const challenge = await sys.api(path, { method: 'POST', json });
  // Ten distinct stamps of the same payload by the same session key: ten different requests.
  const stamps = await Promise.all(Array.from({ length: 10 }, () => stamp(signer.key, challenge.body.payloadToSign)));
  expect(new Set(stamps).size).toBe(10);
  const answers = await Promise.all(
    stamps.map((s) => sys.api(path, { method: 'POST', json, headers: signedHeaders(s, challenge.body.requestId) })),
  );
  const winners = answers.filter((a) => a.status === 200);
  expect(winners).toHaveLength(1);
  for (const loser of answers.filter((a) => a.status !== 200)) expectError(loser, 401, 'REQUEST_ID_ALREADY_USED');
  // The winner's identical re-send is still correlated to its operation.
  const winnerStamp = stamps[answers.findIndex((a) => a.status === 200)];
  expect(
    (await sys.api(path, { method: 'POST', json, headers: signedHeaders(winnerStamp, challenge.body.requestId) }))
      .status,
  ).toBe(200);
});
