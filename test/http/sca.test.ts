import { createHmac } from 'node:crypto';
import { createSoftwareAuthenticator } from '../fixtures/software-authenticator';
import { createLogger } from '../../lib/log';
import { startTestSystem, type TestSystem } from '../system-harness';
import { createCustomer } from './kyc-fixtures';
import { expectError, externalAccount } from './payments-fixtures';

const ORIGIN = 'https://app.example.com';
const RP_ID = 'app.example.com';
let sys: TestSystem;
/** Every log line of the system, at debug level: no secret may appear in one. */
const logLines: string[] = [];
const secrets: string[] = [];
beforeAll(async () => {
  sys = await startTestSystem({
    logger: createLogger({ level: 'debug', write: (line) => logLines.push(line) }),
    env: {
      ACCOUNTS_SCA_RELYING_PARTY_ID: RP_ID,
      ACCOUNTS_SCA_PASSKEY_ORIGINS: ORIGIN,
      ACCOUNTS_SCA_MAX_ATTEMPTS: '5',
      ACCOUNTS_SANDBOX_LIVENESS_DELAY_MS: '0',
    },
  });
}, 120_000);
afterAll(() => sys.stop());

/** An independent RFC 6238 (SHA-1, 6 digits, 30 s) implementation, to prove interoperability. */
function rfc6238(secretHex: string, at = Date.now(), step = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30) + step));
  const mac = createHmac('sha1', Buffer.from(secretHex, 'hex')).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

function base32Decode(text: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of text.replace(/=+$/, '')) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  return Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2))).toString('hex');
}

async function euCustomer(extra: Record<string, unknown> = {}, auth?: string) {
  const c = await createCustomer(sys, {
    region: 'FR',
    fullName: 'Marie Curie',
    email: `marie-${Date.now()}-${Math.random()}@example.com`,
    phoneNumber: '+33612345678',
    ...extra,
  });
  expect((await sys.api(`/customers/${c.id}/verify-phone`, { method: 'POST', auth })).status).toBe(204);
  expect(
    (await sys.api(`/customers/${c.id}/verify-phone/confirm`, { method: 'POST', json: { code: '123456' }, auth }))
      .status,
  ).toBe(200);
  return c;
}

const sca = (path: string, customerId: string, init: Parameters<TestSystem['api']>[1] = {}) =>
  sys.api(`${path}${path.includes('?') ? '&' : '?'}customerId=${encodeURIComponent(customerId)}`, init);

test('a US customer gets 409 on every SCA operation', async () => {
  const us = await createCustomer(sys, { region: 'US', fullName: 'Jane Doe' });
  const account = await externalAccount(sys, us.id);
  const calls: [string, string, unknown?][] = [
    ['GET', '/sca/factors'],
    ['POST', '/sca/factors', { type: 'TOTP' }],
    ['POST', '/sca/factors/confirm', { type: 'TOTP', secret: 'x', code: '123456' }],
    ['DELETE', '/sca/factors/abc'],
    ['POST', '/sca/login/start', { factor: 'SMS_OTP' }],
    ['POST', '/sca/login/complete', {
      factor: 'SMS_OTP',
      endUserIpAddress: '203.0.113.4',
      code: '123456',
      challengeId: 'x',
    }],
    ['POST', '/sca/record-event', { eventType: 'FAILED_LOGIN_ATTEMPT' }],
    ['POST', '/sca/factors/reset', { factor: 'TOTP' }],
    ['GET', '/sca/factors/reset/x'],
    ['POST', '/sca/factors/reset/x/complete'],
  ];
  for (const [method, path, json] of calls) expectError(await sca(path, us.id, { method, json }), 409, 'CONFLICT');
  for (const verb of ['trust', 'untrust']) {
    expectError(await sys.api(`/customers/external-accounts/${account}/${verb}`, { method: 'POST' }), 409, 'CONFLICT');
    expectError(
      await sys.api(`/customers/external-accounts/${account}/${verb}/confirm`, {
        method: 'POST',
        json: { code: '123456', challengeId: 'x' },
      }),
      409,
      'CONFLICT',
    );
  }
  expectError(await sca('/sca/factors', 'Customer:00000000-0000-4000-8000-000000000000'), 404, 'USER_NOT_FOUND');
});

test(
  'TOTP: enrolled with a code from an independent RFC 6238 '
    + 'implementation; recovery codes once; a code never twice',
  async () => {
    const eu = await euCustomer();
    expect((await sca('/sca/factors', eu.id)).body).toEqual({ factors: [{ factor: 'SMS_OTP' }] });
    const start = await sca('/sca/factors', eu.id, { method: 'POST', json: { type: 'TOTP' } });
    expect(start.status).toBe(200);
    expect(start.body.totpUri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(base32Decode(start.body.secretBase32Encoded)).toBe(start.body.secret);
    const wrong = await sca('/sca/factors/confirm', eu.id, {
      method: 'POST',
      json: { type: 'TOTP', secret: start.body.secret, code: rfc6238(start.body.secret, Date.now(), 5) },
    });
    expectError(wrong, 400, 'INVALID_INPUT');
    const confirmed = await sca('/sca/factors/confirm', eu.id, {
      method: 'POST',
      json: { type: 'TOTP', secret: start.body.secret, code: rfc6238(start.body.secret) },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    secrets.push(start.body.secret, start.body.secretBase32Encoded, ...confirmed.body.recoveryCodes);
    expect(confirmed.body.recoveryCodes[0]).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect((await sca('/sca/factors', eu.id)).body.factors).toEqual([{ factor: 'SMS_OTP' }, { factor: 'TOTP' }]);
    expect(JSON.stringify((await sca('/sca/factors', eu.id)).body)).not.toContain(start.body.secret);

    // Login with the next step's code (±1 step): it works once, then that step is spent.
    const secret = start.body.secret;
    expect((await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'TOTP' } })).body).toEqual({
      factor: 'TOTP',
    });
    const code = rfc6238(secret, Date.now(), 1);
    const login = await sca('/sca/login/complete', eu.id, {
      method: 'POST',
      json: { factor: 'TOTP', endUserIpAddress: '203.0.113.4', code },
    });
    expect(login.status).toBe(200);
    expect(login.body.status).toBe('SUCCESS');
    expect(Date.parse(login.body.sessionExpiresAt) - Date.now()).toBeGreaterThan(179 * 86_400_000);
    await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'TOTP' } });
    expectError(
      await sca('/sca/login/complete', eu.id, {
        method: 'POST',
        json: { factor: 'TOTP', endUserIpAddress: '203.0.113.4', code },
      }),
      400,
      'INVALID_INPUT',
    );
    // A recovery code logs in once.
    const recovery = confirmed.body.recoveryCodes[3];
    await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'TOTP' } });
    expect(
      (await sca('/sca/login/complete', eu.id, {
        method: 'POST',
        json: { factor: 'TOTP', endUserIpAddress: '203.0.113.4', code: recovery },
      })).status,
    ).toBe(200);
    await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'TOTP' } });
    expectError(
      await sca('/sca/login/complete', eu.id, {
        method: 'POST',
        json: { factor: 'TOTP', endUserIpAddress: '203.0.113.4', code: recovery },
      }),
      400,
      'INVALID_INPUT',
    );
  },
);

test('passkey: registered and asserted with the software authenticator; one per customer; deletable', async () => {
  const eu = await euCustomer();
  const authenticator = createSoftwareAuthenticator();
  const start = await sca('/sca/factors', eu.id, { method: 'POST', json: { type: 'PASSKEY' } });
  expect(start.status).toBe(200);
  expect(start.body).toMatchObject({ type: 'PASSKEY', allowedOrigins: [ORIGIN], relyingPartyId: RP_ID });
  const made = authenticator.createCredential({ rpId: RP_ID, origin: ORIGIN, challenge: start.body.options.challenge });
  const credential = {
    id: made.credentialId,
    rawId: made.credentialId,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: made.clientDataJson,
      attestationObject: made.attestationObject,
      transports: made.transports,
    },
  };
  expectError(
    await sca('/sca/factors/confirm', eu.id, {
      method: 'POST',
      json: { type: 'PASSKEY', origin: 'https://evil.example', credential },
    }),
    400,
    'INVALID_INPUT',
  );
  const confirmed = await sca('/sca/factors/confirm', eu.id, {
    method: 'POST',
    json: { type: 'PASSKEY', origin: ORIGIN, credential },
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.factor).toMatchObject({ factor: 'PASSKEY', credentialId: made.credentialId });
  expectError(
    await sca('/sca/factors', eu.id, { method: 'POST', json: { type: 'PASSKEY' } }),
    409,
    'PASSKEY_ALREADY_ENROLLED',
  );

  const login = await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'PASSKEY' } });
  expect(login.body).toMatchObject({ factor: 'PASSKEY', allowedOrigins: [ORIGIN], relyingPartyId: RP_ID });
  const challengeHex = Buffer.from(login.body.passkeyOptions.challenge, 'base64url').toString('utf8');
  const signed = authenticator.getAssertion({
    rpId: RP_ID,
    origin: ORIGIN,
    challengeHex,
    credentialId: made.credentialId,
  });
  const assertion = {
    id: signed.credentialId,
    rawId: signed.credentialId,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: signed.clientDataJson,
      authenticatorData: signed.authenticatorData,
      signature: signed.signature,
    },
  };
  const done = await sca('/sca/login/complete', eu.id, {
    method: 'POST',
    json: { factor: 'PASSKEY', endUserIpAddress: '203.0.113.4', passkeyAssertion: assertion, origin: ORIGIN },
  });
  expect(done.status).toBe(200);
  // The same assertion again (a client's retry): the same success, the same session.
  const again = await sca('/sca/login/complete', eu.id, {
    method: 'POST',
    json: { factor: 'PASSKEY', endUserIpAddress: '203.0.113.4', passkeyAssertion: assertion, origin: ORIGIN },
  });
  expect(again.body).toEqual(done.body);
  // After a new login start, the old assertion signs the wrong challenge.
  await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'PASSKEY' } });
  expectError(
    await sca('/sca/login/complete', eu.id, {
      method: 'POST',
      json: { factor: 'PASSKEY', endUserIpAddress: '203.0.113.4', passkeyAssertion: assertion, origin: ORIGIN },
    }),
    400,
    'INVALID_INPUT',
  );

  expect((await sca(`/sca/factors/${encodeURIComponent(made.credentialId)}`, eu.id, { method: 'DELETE' })).status).toBe(
    204,
  );
  expectError(
    await sca(`/sca/factors/${encodeURIComponent(made.credentialId)}`, eu.id, { method: 'DELETE' }),
    404,
    'NOT_FOUND',
  );
  expect((await sca('/sca/factors', eu.id)).body.factors).toEqual([{ factor: 'SMS_OTP' }]);
});

test(
  'SMS login: the code goes through the message-delivery port, '
    + 'completes its challenge once, and the session is reported',
  async () => {
    const eu = await euCustomer();
    const start = await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'SMS_OTP' } });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({
      factor: 'SMS_OTP',
      challengeId: expect.stringMatching(/^ScaChallenge:/),
      expiresAt: expect.any(String),
    });
    const sent = await sys.system.peers.delivery.listSentMessages({ to: eu.phoneNumber }, {});
    expect(sent.messages.some((m) => m.body.includes('authentication code is 123456'))).toBe(true);
    const body = {
      factor: 'SMS_OTP',
      endUserIpAddress: '203.0.113.4',
      challengeId: start.body.challengeId,
      code: '123456',
    };
    const done = await sca('/sca/login/complete', eu.id, { method: 'POST', json: body });
    expect(done.status).toBe(200);
    // The same request again answers the same success; another code for the used challenge is refused.
    expect((await sca('/sca/login/complete', eu.id, { method: 'POST', json: body })).body).toEqual(done.body);
    expectError(
      await sca('/sca/login/complete', eu.id, { method: 'POST', json: { ...body, code: '654321' } }),
      400,
      'INVALID_INPUT',
    );
  },
);

test('200 parallel guesses evaluate no more than the limit; then even the right code is refused', async () => {
  const eu = await euCustomer();
  const start = await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'SMS_OTP' } });
  const guess = (code: string) =>
    sca('/sca/login/complete', eu.id, {
      method: 'POST',
      json: { factor: 'SMS_OTP', endUserIpAddress: '203.0.113.4', challengeId: start.body.challengeId, code },
    });
  const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => guess(String(100000 + i + 1000))));
  const evaluated = answers.filter((a) => a.status === 400);
  expect(evaluated.length).toBeLessThanOrEqual(5);
  expect(answers.every((a) => [400, 423, 429].includes(a.status))).toBe(true);
  expect([423, 429]).toContain((await guess('123456')).status);
});

test(
  'record-event: failed attempts escalate to a lock (423 on '
    + 'login); a password reset keeps it, a factor reset clears it',
  async () => {
    const eu = await euCustomer();
    let last: any;
    for (let i = 0; i < 5; i++) {
      last = await sca('/sca/record-event', eu.id, { method: 'POST', json: { eventType: 'FAILED_LOGIN_ATTEMPT' } });
    }
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: false, failedAttempts: 5 });
    expect(Date.parse(last.body.lockedUntil) - Date.now()).toBeGreaterThan(14 * 60_000);
    const locked = await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'SMS_OTP' } });
    expectError(locked, 423, 'ACCOUNT_LOCKED');
    expect(locked.body.details).toMatchObject({ failedAttempts: 5, suspended: false });
    const reset = await sca('/sca/record-event', eu.id, {
      method: 'POST',
      json: { eventType: 'RESET_PASSWORD_COMPLETED' },
    });
    expect(reset.body).toMatchObject({
      eventType: 'RESET_PASSWORD_COMPLETED',
      suspended: false,
      failedAttempts: 5,
      lockedUntil: last.body.lockedUntil,
    });
    expectError(
      await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'SMS_OTP' } }),
      423,
      'ACCOUNT_LOCKED',
    );
    // The documented unlock: a factor reset that passes liveness.
    const factorReset = await sca('/sca/factors/reset', eu.id, { method: 'POST', json: { factor: 'TOTP' } });
    expect((await sca(`/sca/factors/reset/${factorReset.body.resetId}/complete`, eu.id, { method: 'POST' })).status)
      .toBe(
        204,
      );
    expect((await sca('/sca/login/start', eu.id, { method: 'POST', json: { factor: 'SMS_OTP' } })).status).toBe(200);
    expectError(
      await sca('/sca/record-event', eu.id, { method: 'POST', json: { eventType: 'LOGGED_IN' } }),
      400,
      'INVALID_INPUT',
    );
  },
);

test('trusted beneficiaries: trust and untrust each need an SCA proof bound to that change', async () => {
  const eu = await euCustomer();
  const account = await externalAccount(sys, eu.id);
  const start = await sys.api(`/customers/external-accounts/${account}/trust`, { method: 'POST' });
  expect(start.status).toBe(200);
  expect(start.body.scaChallenge).toMatchObject({
    factor: 'SMS_OTP',
    availableFactors: ['SMS_OTP'],
    purpose: 'TRUST_BENEFICIARY',
  });
  // The trust challenge does not confirm an untrust.
  expectError(
    await sys.api(`/customers/external-accounts/${account}/untrust/confirm`, {
      method: 'POST',
      json: { challengeId: start.body.scaChallenge.id, code: '123456' },
    }),
    400,
    'INVALID_INPUT',
  );
  const confirmed = await sys.api(`/customers/external-accounts/${account}/trust/confirm`, {
    method: 'POST',
    json: { challengeId: start.body.scaChallenge.id, code: '123456' },
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body).toEqual({ trusted: true });
  expectError(
    await sys.api(`/customers/external-accounts/${account}`, { method: 'DELETE' }),
    409,
    'BENEFICIARY_TRUSTED',
  );
  const untrust = await sys.api(`/customers/external-accounts/${account}/untrust`, { method: 'POST' });
  const untrusted = await sys.api(`/customers/external-accounts/${account}/untrust/confirm`, {
    method: 'POST',
    json: { challengeId: untrust.body.scaChallenge.id, code: '123456' },
  });
  expect(untrusted.body).toEqual({ trusted: false });
  expect((await sys.api(`/customers/external-accounts/${account}`, { method: 'DELETE' })).status).toBe(204);
});

test('2FA reset: liveness-gated; an SMS_OTP reset enrolls the new mobile; a failing liveness is REJECTED', async () => {
  const eu = await euCustomer();
  const start = await sca('/sca/factors/reset', eu.id, { method: 'POST', json: { factor: 'SMS_OTP' } });
  expect(start.status).toBe(201);
  expect(start.body).toMatchObject({
    resetId: expect.any(String),
    livenessAccessToken: expect.any(String),
    verificationLink: expect.any(String),
  });
  const status = await sca(`/sca/factors/reset/${start.body.resetId}`, eu.id);
  expect(status.body).toMatchObject({
    status: 'LIVENESS_PASSED',
    factor: 'SMS_OTP',
    enrollmentStatus: null,
    completedAt: null,
  });
  expectError(
    await sca(`/sca/factors/reset/${start.body.resetId}/complete`, eu.id, { method: 'POST', json: {} }),
    400,
    'INVALID_INPUT',
  );
  const done = await sca(`/sca/factors/reset/${start.body.resetId}/complete`, eu.id, {
    method: 'POST',
    json: { mobile: { countryCode: '+33', number: '698765432' } },
  });
  expect(done.status).toBe(204);
  expect((await sys.api(`/customers/${eu.id}`)).body.phoneNumber).toBe('+33698765432');
  expect((await sca(`/sca/factors/reset/${start.body.resetId}`, eu.id)).body).toMatchObject({
    status: 'COMPLETED',
    completedAt: expect.any(String),
  });

  const failing = await euCustomer({ fullName: 'Sandbox Liveness Fail' });
  const rejected = await sca('/sca/factors/reset', failing.id, { method: 'POST', json: { factor: 'TOTP' } });
  expect((await sca(`/sca/factors/reset/${rejected.body.resetId}`, failing.id)).body.status).toBe('REJECTED');
  expectError(
    await sca(`/sca/factors/reset/${rejected.body.resetId}/complete`, failing.id, { method: 'POST' }),
    400,
    'INVALID_INPUT',
  );
});

test("one customer's factors, challenges and resets are invisible to other customers and platforms", async () => {
  const a = await euCustomer();
  const b = await euCustomer();
  const start = await sca('/sca/login/start', a.id, { method: 'POST', json: { factor: 'SMS_OTP' } });
  expectError(
    await sca('/sca/login/complete', b.id, {
      method: 'POST',
      json: { factor: 'SMS_OTP', endUserIpAddress: '203.0.113.4', challengeId: start.body.challengeId, code: '123456' },
    }),
    400,
    'INVALID_INPUT',
  );
  const reset = await sca('/sca/factors/reset', a.id, { method: 'POST', json: { factor: 'TOTP' } });
  expectError(await sca(`/sca/factors/reset/${reset.body.resetId}`, b.id), 404, 'NOT_FOUND');
  const other = await sys.createPlatform();
  expectError(await sca('/sca/factors', a.id, { auth: other.auth }), 404, 'USER_NOT_FOUND');
  expectError(await sca(`/sca/factors/reset/${reset.body.resetId}`, a.id, { auth: other.auth }), 404, 'USER_NOT_FOUND');
});

test('no TOTP secret or recovery code appears in a log line or in a later answer', async () => {
  expect(secrets.length).toBeGreaterThan(10);
  expect(logLines.length).toBeGreaterThan(0);
  for (const secret of secrets) expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
});
