import {
  newKeyPair,
  otpFirstLeg,
  provisionWallet,
  signedHeaders,
  stamp,
  type KeyPair,
  type WalletFixture,
} from './wallet-client';
import { startWalletTestSystem, type WalletTestSystem } from './wallet-test-system';

const SETTLE_MS = 1500;
let sys: WalletTestSystem;
let wallet: WalletFixture;
beforeAll(async () => {
  sys = await startWalletTestSystem({
    WALLET_PROVIDER_SETTLE_MS: String(SETTLE_MS),
    WALLET_RECONCILE_INTERVAL_MS: '100',
    WALLET_OTP_REISSUE_INTERVAL_MS: '0',
  });
  wallet = await provisionWallet(sys);
});
afterAll(async () => {
  await sys.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sessionIds = async () =>
  (await sys.api(`/auth/sessions?accountId=${wallet.accountId}`)).body.data.map((s: { id: string }) =>
    s.id
  ) as string[];

async function untilSettled<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('did not settle in time');
    await sleep(100);
  }
}

test(
  'the signed retry answers 200 PROCESSING until the provider '
    + 'settles; the identical re-send then gets the session',
  async () => {
    const { key, body, first } = await otpFirstLeg(sys.api, wallet.emailCredentialId);
    const send = () =>
      sys.api(`/auth/credentials/${wallet.emailCredentialId}/verify`, { method: 'POST', json: body, headers });
    const headers = signedHeaders(await stamp(key, first.body.payloadToSign), first.body.requestId);
    const processing = await send();
    expect(processing.status).toBe(200);
    expect(processing.body).toEqual({ status: 'PROCESSING', message: expect.any(String) });
    expect((await send()).body.status).toBe('PROCESSING');
    const session = await untilSettled(async () => {
      const res = await send();
      return res.body.status === 'PROCESSING' ? undefined : res;
    });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ id: expect.stringMatching(/^Session:/), type: 'EMAIL_OTP' });
    // Later re-sends answer the same session, not a second one.
    expect((await send()).body.id).toBe(session.body.id);
  },
);

test('nobody re-sends: the service reconciles and the session shows in list sessions', async () => {
  const { key, body, first } = await otpFirstLeg(sys.api, wallet.emailCredentialId);
  const headers = signedHeaders(await stamp(key, first.body.payloadToSign), first.body.requestId);
  const before = await sessionIds();
  const processing = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/verify`, {
    method: 'POST',
    json: body,
    headers,
  });
  expect(processing.body.status).toBe('PROCESSING');
  expect(await sessionIds()).toEqual(before);
  const created = await untilSettled(async () => (await sessionIds()).find((id) => !before.includes(id)));
  const resend = await sys.api(`/auth/credentials/${wallet.emailCredentialId}/verify`, {
    method: 'POST',
    json: body,
    headers,
  });
  expect(resend.body.id).toBe(created);
});

async function untilTerminal(call: () => ReturnType<WalletTestSystem['api']>) {
  return untilSettled(async () => {
    const res = await call();
    return res.status === 200 && res.body.status === 'PROCESSING' ? undefined : res;
  });
}

async function settledSignIn(credentialId: string): Promise<{ session: any; key: KeyPair }> {
  const { key, body, first } = await otpFirstLeg(sys.api, credentialId);
  const headers = signedHeaders(await stamp(key, first.body.payloadToSign), first.body.requestId);
  const res = await untilTerminal(() =>
    sys.api(`/auth/credentials/${credentialId}/verify`, { method: 'POST', json: body, headers })
  );
  return { session: res.body, key };
}

test('add credential: 200 PROCESSING (for every concurrent identical retry), then 201', async () => {
  const phoneWallet = await provisionWallet(sys, { phone: '+14155550111' });
  const signer = await settledSignIn(phoneWallet.emailCredentialId);
  const json = { type: 'SMS_OTP', accountId: phoneWallet.accountId };
  const challenge = await sys.api('/auth/credentials', { method: 'POST', json });
  const headers = signedHeaders(await stamp(signer.key, challenge.body.payloadToSign), challenge.body.requestId);
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => sys.api('/auth/credentials', { method: 'POST', json, headers })),
  );
  expect(answers.map((a) => [a.status, a.body.status])).toEqual(Array(5).fill([200, 'PROCESSING']));
  const created = await untilTerminal(() => sys.api('/auth/credentials', { method: 'POST', json, headers }));
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ type: 'SMS_OTP', nickname: '+14155550111' });
});

test('refresh: 200 PROCESSING then 201; revoke session: 200 PROCESSING then 204', async () => {
  const signer = await settledSignIn(wallet.emailCredentialId);
  const path = `/auth/sessions/${signer.session.id}/refresh`;
  const refreshBody = { clientPublicKey: newKeyPair().publicKeyUncompressed };
  const challenge = await sys.api(path, { method: 'POST', json: refreshBody });
  const headers = signedHeaders(await stamp(signer.key, challenge.body.payloadToSign), challenge.body.requestId);
  expect((await sys.api(path, { method: 'POST', json: refreshBody, headers })).body.status).toBe('PROCESSING');
  const refreshed = await untilTerminal(() => sys.api(path, { method: 'POST', json: refreshBody, headers }));
  expect(refreshed.status).toBe(201);

  const revokePath = `/auth/sessions/${refreshed.body.id}`;
  const revoke = await sys.api(revokePath, { method: 'DELETE' });
  const revokeHeaders = signedHeaders(await stamp(signer.key, revoke.body.payloadToSign), revoke.body.requestId);
  const processing = await sys.api(revokePath, { method: 'DELETE', headers: revokeHeaders });
  expect([processing.status, processing.body.status]).toEqual([200, 'PROCESSING']);
  expect((await untilTerminal(() => sys.api(revokePath, { method: 'DELETE', headers: revokeHeaders }))).status).toBe(
    204,
  );
});
