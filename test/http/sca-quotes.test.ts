import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { createSoftwareAuthenticator } from '../fixtures/software-authenticator';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { asAgent, connectedAgent, policy, quoteBody } from './agent-fixtures';
import {
  accountQuote,
  balanceOf,
  expectError,
  externalAccount,
  FAST_SETTLEMENT,
  fund,
  transactionWhen,
} from './payments-fixtures';

const ORIGIN = 'https://app.example.com';
const RP_ID = 'app.example.com';
let sys: TestSystem;
let receiver: WebhookReceiver;
let seq = 0;
beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      ...FAST_SETTLEMENT,
      ACCOUNTS_SCA_RELYING_PARTY_ID: RP_ID,
      ACCOUNTS_SCA_PASSKEY_ORIGINS: ORIGIN,
      ACCOUNTS_SCA_RESEND_INTERVAL_MS: '0',
    },
  });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await receiver.close();
  await sys.stop();
});

async function payer(region: string) {
  const terms = await sys.api('/customers/end-user-terms');
  const consent = {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
  const created = await sys.api('/customers', {
    method: 'POST',
    json: {
      ...INDIVIDUAL_CUSTOMER,
      region,
      nationality: region,
      phoneNumber: '+33612345678',
      email: `p${seq}@example.com`,
      platformCustomerId: `sca-payer-${process.pid}-${seq++}`,
      endUserTermsConsent: consent,
    },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  if (region !== 'US') {
    expect((await sys.api(`/customers/${id}/verify-phone`, { method: 'POST' })).status).toBe(204);
    expect(
      (await sys.api(`/customers/${id}/verify-phone/confirm`, { method: 'POST', json: { code: '123456' } })).status,
    ).toBe(200);
  }
  const accounts = await sys.api(`/customers/internal-accounts?customerId=${id}&type=INTERNAL_FIAT&currency=USD`);
  const usd = accounts.body.data[0].id as string;
  await fund(sys, usd, 100_000);
  return { id, usd, payee: await externalAccount(sys, id) };
}

const sca = (path: string, customerId: string, json: unknown) =>
  sys.api(`${path}?customerId=${encodeURIComponent(customerId)}`, { method: 'POST', json });
/** A software authenticator's passkey enrolled and confirmed as the customer's SCA factor. */
async function enrolledPasskey(customerId: string) {
  const authenticator = createSoftwareAuthenticator();
  const enroll = await sca('/sca/factors', customerId, { type: 'PASSKEY' });
  const made = authenticator.createCredential({
    rpId: RP_ID,
    origin: ORIGIN,
    challenge: enroll.body.options.challenge,
  });
  const credential = {
    id: made.credentialId,
    rawId: made.credentialId,
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: made.clientDataJson, attestationObject: made.attestationObject },
  };
  expect((await sca('/sca/factors/confirm', customerId, { type: 'PASSKEY', origin: ORIGIN, credential })).status).toBe(
    200,
  );
  return { authenticator, made };
}

async function smsLogin(customerId: string) {
  const start = await sca('/sca/login/start', customerId, { factor: 'SMS_OTP' });
  const done = await sca('/sca/login/complete', customerId, {
    factor: 'SMS_OTP',
    endUserIpAddress: '203.0.113.4',
    challengeId: start.body.challengeId,
    code: '123456',
  });
  expect(done.status).toBe(200);
}

/**
 * Authorizes with the SMS code until the quote leaves PENDING_AUTHORIZATION, as the reference tells clients to loop.
 */
async function authorizeEveryStep(quoteId: string) {
  for (let step = 0;; step += 1) {
    const res = await sys.api(`/quotes/${quoteId}/authorize`, { method: 'POST', json: { code: '123456' } });
    if (res.status !== 200 || res.body.status !== 'PENDING_AUTHORIZATION' || step === 3) return res;
  }
}

async function quoteFor(c: { usd: string; payee: string }, amount = 1000) {
  const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(c.usd, c.payee, amount) });
  expect(quote.status).toBe(201);
  return quote.body;
}

test("a US customer's quote executes at once, and authorize answers 409", async () => {
  const us = await payer('US');
  const quote = await quoteFor(us);
  const executed = await sys.api(`/quotes/${quote.id}/execute`, { method: 'POST' });
  expect(executed.status).toBe(200);
  expect(executed.body.status).toBe('PROCESSING');
  expect(executed.body).not.toHaveProperty('scaChallenge');
  expectError(
    await sys.api(`/quotes/${quote.id}/authorize`, { method: 'POST', json: { code: '123456' } }),
    409,
    'CONFLICT',
  );
  expectError(await sys.api(`/quotes/${quote.id}/authorize/resend`, { method: 'POST' }), 409, 'CONFLICT');
});

test(
  "an EU customer's execution waits for authorization: 409 on "
    + 're-execute, SCA session required, then it moves money once',
  async () => {
    const eu = await payer('FR');
    const quote = await quoteFor(eu);
    const held = await sys.api(`/quotes/${quote.id}/execute`, { method: 'POST' });
    expect(held.status).toBe(200);
    expect(held.body.status).toBe('PENDING_AUTHORIZATION');
    expect(held.body.scaChallenge).toMatchObject({
      id: expect.stringMatching(/^ScaChallenge:/),
      factor: 'SMS_OTP',
      availableFactors: ['SMS_OTP'],
      expiresAt: quote.expiresAt,
      purpose: 'CURRENCY_CONVERSION',
    });
    expect(await balanceOf(sys, eu.id, eu.usd)).toBe(100_000);
    expect((await sys.api(`/transactions/${quote.transactionId}`)).body.status).toBe('PENDING_AUTHORIZATION');
    await receiver.waitFor(() =>
      receiver.accepted.some((w) =>
        w.type === 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION' && w.data.id === quote.transactionId
      )
    );

    expectError(await sys.api(`/quotes/${quote.id}/execute`, { method: 'POST' }), 409, 'CONFLICT');
    expectError(
      await sys.api(`/quotes/${quote.id}/authorize`, { method: 'POST', json: { code: '123456' } }),
      409,
      'SCA_SESSION_REQUIRED',
    );
    await smsLogin(eu.id);
    expectError(
      await sys.api(`/quotes/${quote.id}/authorize`, { method: 'POST', json: { code: '654321' } }),
      400,
      'INVALID_INPUT',
    );
    expect((await sys.api(`/quotes/${quote.id}/authorize/resend`, { method: 'POST' })).status).toBe(204);
    // A cross-currency send is authorized in two steps: the conversion, then the payout (a new challenge).
    const converted = await sys.api(`/quotes/${quote.id}/authorize`, { method: 'POST', json: { code: '123456' } });
    expect(converted.status).toBe(200);
    expect(converted.body.status).toBe('PENDING_AUTHORIZATION');
    expect(converted.body.scaChallenge).toMatchObject({
      purpose: 'PAYOUT',
      factor: 'SMS_OTP',
      expiresAt: quote.expiresAt,
    });
    expect(converted.body.scaChallenge.id).not.toBe(held.body.scaChallenge.id);
    expect(await balanceOf(sys, eu.id, eu.usd)).toBe(100_000);
    // The same proof twice at once (a client's retry): both answer 200, the payment executes once.
    const [a, b] = await Promise.all(
      [1, 2].map(() => sys.api(`/quotes/${quote.id}/authorize`, { method: 'POST', json: { code: '123456' } })),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    const winner = [a, b].find((r) => r.body.status === 'PROCESSING')!;
    expect(winner).toBeDefined();
    expect(winner.body).not.toHaveProperty('scaChallenge');
    await transactionWhen(sys, quote.transactionId, (t) => t.status === 'COMPLETED');
    expect(await balanceOf(sys, eu.id, eu.usd)).toBe(100_000 - quote.totalSendingAmount);
  },
);

test('a trusted payee is paid without a challenge; an untrusted one only after authorize', async () => {
  const eu = await payer('DE');
  const start = await sys.api(`/customers/external-accounts/${eu.payee}/trust`, { method: 'POST' });
  expect(
    (await sys.api(`/customers/external-accounts/${eu.payee}/trust/confirm`, {
      method: 'POST',
      json: { challengeId: start.body.scaChallenge.id, code: '123456' },
    })).body,
  ).toEqual({ trusted: true });
  const trusted = await quoteFor(eu);
  const executed = await sys.api(`/quotes/${trusted.id}/execute`, { method: 'POST' });
  expect(executed.body.status).toBe('PROCESSING');
  // A trusted beneficiary cannot be deleted before it is untrusted.
  const untrustedPayee = await externalAccount(sys, eu.id, 'MXN_ACCOUNT', {
    accountInfo: {
      accountType: 'MXN_ACCOUNT',
      clabeNumber: '002010077777777771',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Otro Persona',
        birthDate: '1990-01-01',
        nationality: 'MX',
      },
    },
  }).catch(() => undefined);
  if (untrustedPayee) {
    const other = await sys.api('/quotes', { method: 'POST', json: accountQuote(eu.usd, untrustedPayee, 1000) });
    expect((await sys.api(`/quotes/${other.body.id}/execute`, { method: 'POST' })).body.status).toBe(
      'PENDING_AUTHORIZATION',
    );
  }
});

test(
  'dynamic linking: a passkey proof for one quote never authorizes another; '
    + 'TOTP is refused for a payment; a passkey challenge has no code to re-send',
  async () => {
    const eu = await payer('IT');
    const { authenticator, made } = await enrolledPasskey(eu.id);
    await smsLogin(eu.id);

    const first = await quoteFor(eu, 1000);
    const second = await quoteFor(eu, 2000);
    const heldFirst = await sys.api(`/quotes/${first.id}/execute`, { method: 'POST', json: { scaFactor: 'PASSKEY' } });
    const heldSecond = await sys.api(`/quotes/${second.id}/execute`, {
      method: 'POST',
      json: { scaFactor: 'PASSKEY' },
    });
    expect(heldFirst.body.scaChallenge.factor).toBe('PASSKEY');
    const third = await quoteFor(eu, 3000);
    expectError(
      await sys.api(`/quotes/${third.id}/execute`, { method: 'POST', json: { scaFactor: 'TOTP' } }),
      400,
      'INVALID_INPUT',
    );
    expectError(await sys.api(`/quotes/${first.id}/authorize/resend`, { method: 'POST' }), 409, 'CONFLICT');
    const sign = (challenge: any) => {
      const challengeHex = Buffer.from(challenge.passkeyAssertionOptions.challenge, 'base64url').toString('utf8');
      const s = authenticator.getAssertion({
        rpId: RP_ID,
        origin: ORIGIN,
        challengeHex,
        credentialId: made.credentialId,
      });
      return {
        id: s.credentialId,
        rawId: s.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: s.clientDataJson, authenticatorData: s.authenticatorData, signature: s.signature },
      };
    };
    const forFirst = sign(heldFirst.body.scaChallenge);
    expectError(
      await sys.api(`/quotes/${second.id}/authorize`, {
        method: 'POST',
        json: { passkeyAssertion: forFirst, origin: ORIGIN },
      }),
      400,
      'INVALID_INPUT',
    );
    const converted = await sys.api(`/quotes/${first.id}/authorize`, {
      method: 'POST',
      json: { passkeyAssertion: forFirst, origin: ORIGIN },
    });
    expect(converted.status).toBe(200);
    expect(converted.body.status).toBe('PENDING_AUTHORIZATION');
    expect(converted.body.scaChallenge).toMatchObject({ factor: 'PASSKEY', purpose: 'PAYOUT' });
    // The conversion's proof again is a repeat of that step: the same answer, and the payout still awaits its own
    // proof.
    const repeated = await sys.api(`/quotes/${first.id}/authorize`, {
      method: 'POST',
      json: { passkeyAssertion: forFirst, origin: ORIGIN },
    });
    expect(repeated.status).toBe(200);
    expect(repeated.body.scaChallenge).toEqual(converted.body.scaChallenge);
    const forPayout = sign(converted.body.scaChallenge);
    const authorized = await sys.api(`/quotes/${first.id}/authorize`, {
      method: 'POST',
      json: { passkeyAssertion: forPayout, origin: ORIGIN },
    });
    expect(authorized.status).toBe(200);
    expect(authorized.body.status).toBe('PROCESSING');
    // The payout's proof again answers the quote as it stands; any other proof finds nothing to authorize.
    const again = await sys.api(`/quotes/${first.id}/authorize`, {
      method: 'POST',
      json: { passkeyAssertion: forPayout, origin: ORIGIN },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
    expectError(
      await sys.api(`/quotes/${first.id}/authorize`, { method: 'POST', json: { code: '123456' } }),
      409,
      'CONFLICT',
    );
    expect(heldSecond.body.status).toBe('PENDING_AUTHORIZATION');
  },
);

test(
  "an agent never satisfies the customer's challenge: its execution "
    + 'stays PENDING_AUTHORIZATION until the platform authorizes',
  async () => {
    const eu = await payer('ES');
    const { bearer } = await connectedAgent(sys, eu.id, policy());
    const me = asAgent(sys, bearer);
    const quote = await me('/agents/me/quotes', { method: 'POST', json: quoteBody(eu.usd, eu.payee, 1_000) });
    expect(quote.status).toBe(201);
    const executed = await me(`/agents/me/quotes/${quote.body.id}/execute`, { method: 'POST' });
    expect(executed.status).toBe(200);
    // The agent's action is approved by its policy, yet the quote waits for the customer.
    expect((await sys.api(`/quotes/${quote.body.id}`)).body.status).toBe('PENDING_AUTHORIZATION');
    expect(await balanceOf(sys, eu.id, eu.usd)).toBe(100_000);
    // Agent credentials do not reach the authorize operation.
    expectError(
      await me(`/quotes/${quote.body.id}/authorize`, { method: 'POST', json: { code: '123456' } }),
      401,
      'UNAUTHORIZED',
    );
    await smsLogin(eu.id);
    const authorized = await authorizeEveryStep(quote.body.id);
    expect(authorized.status).toBe(200);
    expect(authorized.body.status).toBe('PROCESSING');
  },
);

test(
  'risk signals: a recorded failed login or password reset removes '
    + 'the trusted-beneficiary exemption, for that customer only',
  async () => {
    const trust = async (c: { payee: string }) => {
      const start = await sys.api(`/customers/external-accounts/${c.payee}/trust`, { method: 'POST' });
      expect(
        (await sys.api(`/customers/external-accounts/${c.payee}/trust/confirm`, {
          method: 'POST',
          json: { challengeId: start.body.scaChallenge.id, code: '123456' },
        })).body,
      ).toEqual({ trusted: true });
    };
    const executeStatus = async (c: { usd: string; payee: string }) =>
      (await sys.api(`/quotes/${(await quoteFor(c)).id}/execute`, { method: 'POST' })).body.status;
    const [risky, reset, calm] = [await payer('NL'), await payer('BE'), await payer('AT')];
    for (const c of [risky, reset, calm]) await trust(c);

    expect((await sca('/sca/record-event', risky.id, { eventType: 'FAILED_LOGIN_ATTEMPT' })).status).toBe(200);
    expect((await sca('/sca/record-event', reset.id, { eventType: 'RESET_PASSWORD_COMPLETED' })).status).toBe(200);
    const quote = await quoteFor(risky);
    const held = await sys.api(`/quotes/${quote.id}/execute`, { method: 'POST' });
    expect(held.body.status).toBe('PENDING_AUTHORIZATION');
    expect(held.body.scaChallenge).toMatchObject({ factor: 'SMS_OTP' });
    expect(await executeStatus(reset)).toBe('PENDING_AUTHORIZATION');
    expect(await executeStatus(calm)).toBe('PROCESSING');
    // The challenge is still satisfiable the usual way.
    await smsLogin(risky.id);
    const authorized = await authorizeEveryStep(quote.id);
    expect(authorized.status).toBe(200);
    expect(authorized.body.status).toBe('PROCESSING');
  },
);

test(
  "account reads: an SCA customer's history before the 90-day window needs "
    + 'a live SCA session; the window and non-SCA customers read without one',
  async () => {
    const [eu, us] = [await payer('PT'), await payer('US')];
    const [euQuote, usQuote] = [await quoteFor(eu), await quoteFor(us)];
    const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
    const history = (c: { id: string }, startDate?: string) =>
      sys.api(
        `/transactions?customerId=${encodeURIComponent(c.id)}${
          startDate ? `&startDate=${encodeURIComponent(startDate)}` : ''
        }`,
      );
    const ids = (res: { body: any }) => res.body.data.map((t: any) => t.id);

    const windowOnly = await history(eu);
    expect(windowOnly.status).toBe(200);
    expect(ids(windowOnly)).toContain(euQuote.transactionId);
    const recent = await history(eu, daysAgo(30));
    expect(recent.status).toBe(200);
    expect(ids(recent)).toContain(euQuote.transactionId);
    expectError(await history(eu, daysAgo(100)), 409, 'SCA_SESSION_REQUIRED');

    const usOld = await history(us, daysAgo(400));
    expect(usOld.status).toBe(200);
    expect(ids(usOld)).toContain(usQuote.transactionId);

    await smsLogin(eu.id);
    const old = await history(eu, daysAgo(100));
    expect(old.status).toBe(200);
    expect(ids(old)).toContain(euQuote.transactionId);
    // A password reset revokes the session, and with it the older history.
    expect((await sca('/sca/record-event', eu.id, { eventType: 'RESET_PASSWORD_COMPLETED' })).status).toBe(200);
    expectError(await history(eu, daysAgo(100)), 409, 'SCA_SESSION_REQUIRED');
  },
);

test(
  'account reads by platformCustomerId and quote reads are '
    + "gated alike; another customer's session does not open them",
  async () => {
    const [eu, other, us] = [await payer('DE'), await payer('FR'), await payer('US')];
    const [euQuote, usQuote] = [await quoteFor(eu), await quoteFor(us)];
    const pcOf = async (c: { id: string }) => (await sys.api(`/customers/${c.id}`)).body.platformCustomerId as string;
    const old = encodeURIComponent(new Date(Date.now() - 100 * 86_400_000).toISOString());
    const byPlatformId = async (c: { id: string }) =>
      sys.api(`/transactions?platformCustomerId=${encodeURIComponent(await pcOf(c))}&startDate=${old}`);
    const quotesOf = (c: { id: string }) =>
      sys.api(`/quotes?customerId=${encodeURIComponent(c.id)}&createdAfter=${old}`);
    const ids = (res: { body: any }) => res.body.data.map((t: any) => t.id);

    expectError(await byPlatformId(eu), 409, 'SCA_SESSION_REQUIRED');
    expectError(await quotesOf(eu), 409, 'SCA_SESSION_REQUIRED');
    const windowOnly = await sys.api(`/quotes?customerId=${encodeURIComponent(eu.id)}`);
    expect(windowOnly.status).toBe(200);
    expect(ids(windowOnly)).toContain(euQuote.id);
    expect((await sys.api(`/quotes/${euQuote.id}`)).status).toBe(200); // created now: inside the window

    // A non-SCA customer's reads are unchanged.
    const usByPlatformId = await byPlatformId(us);
    expect(usByPlatformId.status).toBe(200);
    expect(ids(usByPlatformId)).toContain(usQuote.transactionId);
    expect(ids(await quotesOf(us))).toContain(usQuote.id);

    await smsLogin(other.id);
    expectError(await byPlatformId(eu), 409, 'SCA_SESSION_REQUIRED');
    expectError(await quotesOf(eu), 409, 'SCA_SESSION_REQUIRED');

    await smsLogin(eu.id);
    const opened = await byPlatformId(eu);
    expect(opened.status).toBe(200);
    expect(ids(opened)).toContain(euQuote.transactionId);
    expect(ids(await quotesOf(eu))).toContain(euQuote.id);
  },
);

test(
  "a client retrying a step's proof (10 at once, then 5 more) gets "
    + 'the same answer, counts nothing, and the next step still authorizes',
  async () => {
    const eu = await payer('IT');
    const { authenticator, made } = await enrolledPasskey(eu.id);
    await smsLogin(eu.id);
    const sign = (challenge: any) => {
      const challengeHex = Buffer.from(challenge.passkeyAssertionOptions.challenge, 'base64url').toString('utf8');
      const s = authenticator.getAssertion({
        rpId: RP_ID,
        origin: ORIGIN,
        challengeHex,
        credentialId: made.credentialId,
      });
      return {
        id: s.credentialId,
        rawId: s.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: s.clientDataJson, authenticatorData: s.authenticatorData, signature: s.signature },
      };
    };
    const quote = await quoteFor(eu, 1500);
    const held = await sys.api(`/quotes/${quote.id}/execute`, { method: 'POST', json: { scaFactor: 'PASSKEY' } });
    const conversion = { passkeyAssertion: sign(held.body.scaChallenge), origin: ORIGIN };
    const authorize = (json: unknown) => sys.api(`/quotes/${quote.id}/authorize`, { method: 'POST', json });
    const answers = await Promise.all(Array.from({ length: 10 }, () => authorize(conversion)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const payoutChallenge = answers[0].body.scaChallenge;
    expect(payoutChallenge.purpose).toBe('PAYOUT');
    for (const a of answers) expect(a.body.scaChallenge.id).toBe(payoutChallenge.id);
    for (let i = 0; i < 5; i += 1) expect((await authorize(conversion)).body.scaChallenge.id).toBe(payoutChallenge.id);
    const probe = await sca('/sca/record-event', eu.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    expect(probe.body.failedAttempts).toBe(1); // the probe itself: no retry counted
    const paid = await authorize({ passkeyAssertion: sign(payoutChallenge), origin: ORIGIN });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('PROCESSING');
  },
);
