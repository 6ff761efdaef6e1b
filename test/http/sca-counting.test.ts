import { Secret, TOTP, URI } from 'otpauth';
import { createSoftwareAuthenticator } from '../fixtures/software-authenticator';
import { startTestSystem, type TestSystem } from '../system-harness';
import { createCustomer } from './kyc-fixtures';
import { expectError } from './payments-fixtures';

// Exact counting of SCA proofs under retries and races, with the real client libraries: codes from
// `otpauth` (as an authenticator app computes them) and passkeys from the software authenticator.
const ORIGIN = 'https://app.example.com';
const RP_ID = 'app.example.com';
const IP = '203.0.113.4';
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      ACCOUNTS_SCA_RELYING_PARTY_ID: RP_ID,
      ACCOUNTS_SCA_PASSKEY_ORIGINS: ORIGIN,
      ACCOUNTS_SCA_MAX_ATTEMPTS: '5',
      ACCOUNTS_SANDBOX_LIVENESS_DELAY_MS: '0',
    },
  });
}, 120_000);
afterAll(() => sys.stop());

const sca = (path: string, customerId: string, json?: unknown) =>
  sys.api(`${path}?customerId=${encodeURIComponent(customerId)}`, {
    method: json === undefined ? 'GET' : 'POST',
    json,
  });

async function euCustomer() {
  return createCustomer(sys, {
    region: 'FR',
    fullName: 'Marie Curie',
    email: `m-${Date.now()}-${Math.random()}@example.com`,
  });
}

/** Enrolls TOTP and answers the authenticator app (otpauth, from the totpUri the start returned). */
async function withTotp(customerId: string): Promise<TOTP> {
  const start = await sca('/sca/factors', customerId, { type: 'TOTP' });
  const app = URI.parse(start.body.totpUri) as TOTP;
  expect(app.secret.hex).toBe(Secret.fromHex(start.body.secret).hex);
  expect(
    (await sca('/sca/factors/confirm', customerId, { type: 'TOTP', secret: start.body.secret, code: app.generate() }))
      .status,
  ).toBe(200);
  return app;
}

/** A code the app never shows now (not the previous, current or next step's). */
function wrongCode(app: TOTP, i: number): string {
  const near = new Set([-1, 0, 1].map((d) => app.generate({ timestamp: Date.now() + d * 30_000 })));
  for (let n = 100_000 + i;; n += 7919) {
    if (!near.has(String(n % 1_000_000).padStart(6, '0'))) return String(n % 1_000_000).padStart(6, '0');
  }
}

/** The customer's failed-attempt count, read by recording one more failed attempt (the count it answers, less one). */
async function failedAttempts(customerId: string): Promise<number> {
  const r = await sca('/sca/record-event', customerId, { eventType: 'FAILED_LOGIN_ATTEMPT' });
  return (r.status === 200 ? r.body.failedAttempts : r.body.details.failedAttempts) - 1;
}

const complete = (customerId: string, code: string) =>
  sca('/sca/login/complete', customerId, { factor: 'TOTP', endUserIpAddress: IP, code });

test('10 concurrent submits of the right code succeed once, lock nothing; later repeats get that success', async () => {
  const eu = await euCustomer();
  const app = await withTotp(eu.id);
  // The enrollment used this step's code: log in with the next step's (±1 step is accepted).
  const code = app.generate({ timestamp: Date.now() + 30_000 });
  await sca('/sca/login/start', eu.id, { factor: 'TOTP' });
  const answers = await Promise.all(Array.from({ length: 10 }, () => complete(eu.id, code)));
  expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
  expect(new Set(answers.map((a) => a.body.sessionExpiresAt)).size).toBe(1);
  for (let i = 0; i < 5; i += 1) expect((await complete(eu.id, code)).body).toEqual(answers[0].body);
  expect(await failedAttempts(eu.id)).toBe(0);
  expect((await sca('/sca/login/start', eu.id, { factor: 'TOTP' })).status).toBe(200);
});

test(
  '100 concurrent wrong codes, with login starts racing them, '
    + 'are evaluated exactly 5 times in all; every failure is counted',
  async () => {
    const eu = await euCustomer();
    const app = await withTotp(eu.id);
    let evaluated = 0;
    let locked = false;
    for (let wave = 0; wave < 10 && !locked; wave += 1) {
      await sca('/sca/login/start', eu.id, { factor: 'TOTP' });
      const answers = await Promise.all([
        ...Array.from({ length: 100 }, (_, i) => complete(eu.id, wrongCode(app, wave * 100 + i))),
        ...Array.from({ length: 10 }, () => sca('/sca/login/start', eu.id, { factor: 'TOTP' })),
      ]);
      const guesses = answers.slice(0, 100);
      expect(guesses.every((a) => [400, 423, 429].includes(a.status))).toBe(true);
      evaluated += guesses.filter((a) => a.status === 400).length;
      locked = guesses.some((a) => a.status === 423);
    }
    expect(evaluated).toBe(5);
    const refused = await complete(eu.id, app.generate());
    expectError(refused, 423, 'ACCOUNT_LOCKED');
    expect(refused.body.details).toMatchObject({ failedAttempts: 5, suspended: false });
  },
);

test('a loop of recorded password resets reopens no guessing: no more codes are evaluated than the limit', async () => {
  const eu = await euCustomer();
  const app = await withTotp(eu.id);
  let evaluated = 0;
  for (let i = 0; i < 40; i += 1) {
    const reset = await sca('/sca/record-event', eu.id, { eventType: 'RESET_PASSWORD_COMPLETED' });
    expect(reset.status).toBe(200);
    await sca('/sca/login/start', eu.id, { factor: 'TOTP' });
    const guess = await complete(eu.id, wrongCode(app, i));
    if (guess.status === 400) evaluated += 1;
    else expect(guess.status).toBe(423);
  }
  expect(evaluated).toBe(5);
  // The documented unlock is a factor reset that passes liveness (rate limited: 5 a day).
  const started = await sca('/sca/factors/reset', eu.id, { factor: 'SMS_OTP' });
  expect(started.status).toBe(201);
  const done = await sca(`/sca/factors/reset/${started.body.resetId}/complete`, eu.id, {
    mobile: { countryCode: '+33', number: '612345678' },
  });
  expect(done.status).toBe(204);
  expect((await sca('/sca/login/start', eu.id, { factor: 'TOTP' })).status).toBe(200);
  for (let i = 0; i < 4; i += 1) expect((await sca('/sca/factors/reset', eu.id, { factor: 'TOTP' })).status).toBe(201);
  expectError(await sca('/sca/factors/reset', eu.id, { factor: 'TOTP' }), 429, 'RATE_LIMITED');
});

test(
  'a passkey assertion without user verification is refused '
    + 'with a clear error and counts nothing; with it, it logs in',
  async () => {
    const eu = await euCustomer();
    const authenticator = createSoftwareAuthenticator();
    const enroll = await sca('/sca/factors', eu.id, { type: 'PASSKEY' });
    expect(enroll.body.options.authenticatorSelection.userVerification).toBe('required');
    const credentialOf = (made: ReturnType<typeof authenticator.createCredential>) => ({
      id: made.credentialId,
      rawId: made.credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: made.clientDataJson, attestationObject: made.attestationObject },
    });
    // A registration without user verification does not enroll.
    const unverified = authenticator.createCredential({
      rpId: RP_ID,
      origin: ORIGIN,
      challenge: enroll.body.options.challenge,
      userVerified: false,
    });
    expectError(
      await sca('/sca/factors/confirm', eu.id, {
        type: 'PASSKEY',
        origin: ORIGIN,
        credential: credentialOf(unverified),
      }),
      400,
      'INVALID_INPUT',
    );
    const made = authenticator.createCredential({
      rpId: RP_ID,
      origin: ORIGIN,
      challenge: enroll.body.options.challenge,
    });
    expect(
      (await sca('/sca/factors/confirm', eu.id, { type: 'PASSKEY', origin: ORIGIN, credential: credentialOf(made) }))
        .status,
    ).toBe(200);

    const login = await sca('/sca/login/start', eu.id, { factor: 'PASSKEY' });
    expect(login.body.passkeyOptions.userVerification).toBe('required');
    const challengeHex = Buffer.from(login.body.passkeyOptions.challenge, 'base64url').toString('utf8');
    const assertionOf = (userVerified: boolean) => {
      const s = authenticator.getAssertion({
        rpId: RP_ID,
        origin: ORIGIN,
        challengeHex,
        credentialId: made.credentialId,
        userVerified,
      });
      return {
        id: s.credentialId,
        rawId: s.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: s.clientDataJson, authenticatorData: s.authenticatorData, signature: s.signature },
      };
    };
    const refused = await sca('/sca/login/complete', eu.id, {
      factor: 'PASSKEY',
      endUserIpAddress: IP,
      passkeyAssertion: assertionOf(false),
      origin: ORIGIN,
    });
    expectError(refused, 400, 'INVALID_INPUT');
    expect(refused.body.details.errors).toEqual([
      expect.objectContaining({ field: 'passkeyAssertion', message: expect.stringMatching(/user verification/) }),
    ]);
    expect(await failedAttempts(eu.id)).toBe(0);
    const done = await sca('/sca/login/complete', eu.id, {
      factor: 'PASSKEY',
      endUserIpAddress: IP,
      passkeyAssertion: assertionOf(true),
      origin: ORIGIN,
    });
    expect(done.status).toBe(200);
  },
);
