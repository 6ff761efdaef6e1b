import { createHmac } from 'node:crypto';
import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { createSoftwareAuthenticator } from '../fixtures/software-authenticator';
import { startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, balanceOf, expectError, externalAccount, FAST_SETTLEMENT, fund } from './payments-fixtures';

/**
 * Strong Customer Authentication end to end, walked once as a new platform user would, in order: an EU customer
 * enrolls TOTP (codes from an independent RFC 6238 implementation) and a passkey (the software
 * authenticator), logs in, pays an untrusted payee only after authorize, trusts it, then pays it
 * without a challenge; a US customer meets 409 and pays with no SCA step. Every request and answer is
 * checked against our OpenAPI document and the reference's schemas by the harness.
 */
const ORIGIN = 'https://app.example.com';
const RP_ID = 'app.example.com';
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({
    env: { ...FAST_SETTLEMENT, ACCOUNTS_SCA_RELYING_PARTY_ID: RP_ID, ACCOUNTS_SCA_PASSKEY_ORIGINS: ORIGIN },
  });
}, 120_000);
afterAll(() => sys.stop());

function rfc6238(secretHex: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', Buffer.from(secretHex, 'hex')).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function newCustomer(region: string) {
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
      email: `journey-${region}-${Date.now()}@example.com`,
      platformCustomerId: `sca-journey-${region}-${process.pid}`,
      endUserTermsConsent: consent,
    },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const usd = (await sys.api(`/customers/internal-accounts?customerId=${id}&type=INTERNAL_FIAT&currency=USD`)).body
    .data[0].id as string;
  await fund(sys, usd, 100_000);
  return { id, usd, payee: await externalAccount(sys, id) };
}

const sca = (path: string, customerId: string, json?: unknown, method = json === undefined ? 'GET' : 'POST') =>
  sys.api(`${path}?customerId=${encodeURIComponent(customerId)}`, { method, ...(json === undefined ? {} : { json }) });

test(
  'an EU customer enrolls TOTP and a passkey, logs in, pays an untrusted payee '
    + 'after authorize and a trusted one without a challenge; a US customer gets 409',
  async () => {
    const eu = await newCustomer('FR');
    // SMS_OTP comes with the verified phone.
    expect((await sys.api(`/customers/${eu.id}/verify-phone`, { method: 'POST' })).status).toBe(204);
    expect(
      (await sys.api(`/customers/${eu.id}/verify-phone/confirm`, { method: 'POST', json: { code: '123456' } })).status,
    ).toBe(200);
    expect((await sca('/sca/factors', eu.id)).body).toEqual({ factors: [{ factor: 'SMS_OTP' }] });

    // TOTP, as an authenticator app would compute it.
    const totp = await sca('/sca/factors', eu.id, { type: 'TOTP' });
    expect(totp.body.totpUri).toMatch(/^otpauth:\/\/totp\//);
    const totpDone = await sca('/sca/factors/confirm', eu.id, {
      type: 'TOTP',
      secret: totp.body.secret,
      code: rfc6238(totp.body.secret),
    });
    expect(totpDone.status).toBe(200);
    expect(totpDone.body.recoveryCodes).toHaveLength(10);

    // A passkey from the software authenticator.
    const authenticator = createSoftwareAuthenticator();
    const passkey = await sca('/sca/factors', eu.id, { type: 'PASSKEY' });
    const made = authenticator.createCredential({
      rpId: RP_ID,
      origin: ORIGIN,
      challenge: passkey.body.options.challenge,
    });
    const credential = {
      id: made.credentialId,
      rawId: made.credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: made.clientDataJson, attestationObject: made.attestationObject },
    };
    expect((await sca('/sca/factors/confirm', eu.id, { type: 'PASSKEY', origin: ORIGIN, credential })).status).toBe(
      200,
    );
    expect((await sca('/sca/factors', eu.id)).body.factors.map((f: any) => f.factor)).toEqual([
      'SMS_OTP',
      'TOTP',
      'PASSKEY',
    ]);

    // Log in with the passkey: the SCA session.
    const login = await sca('/sca/login/start', eu.id, { factor: 'PASSKEY' });
    const challengeHex = Buffer.from(login.body.passkeyOptions.challenge, 'base64url').toString('utf8');
    const signed = authenticator.getAssertion({
      rpId: RP_ID,
      origin: ORIGIN,
      challengeHex,
      credentialId: made.credentialId,
    });
    const passkeyAssertion = {
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
    const session = await sca('/sca/login/complete', eu.id, {
      factor: 'PASSKEY',
      endUserIpAddress: '203.0.113.4',
      passkeyAssertion,
      origin: ORIGIN,
    });
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ status: 'SUCCESS', sessionExpiresAt: expect.any(String) });

    // An untrusted payee: the payment waits for authorize, each step its own challenge.
    const first = (await sys.api('/quotes', { method: 'POST', json: accountQuote(eu.usd, eu.payee, 1000) })).body;
    const held = await sys.api(`/quotes/${first.id}/execute`, { method: 'POST' });
    expect(held.body.status).toBe('PENDING_AUTHORIZATION');
    expect(held.body.scaChallenge).toMatchObject({ factor: 'SMS_OTP' });
    expect(await balanceOf(sys, eu.id, eu.usd)).toBe(100_000);
    let authorized = held;
    for (let step = 0; authorized.body.status === 'PENDING_AUTHORIZATION' && step < 3; step += 1) {
      authorized = await sys.api(`/quotes/${first.id}/authorize`, { method: 'POST', json: { code: '123456' } });
      expect(authorized.status).toBe(200);
    }
    expect(authorized.body.status).toBe('PROCESSING');
    expect(await balanceOf(sys, eu.id, eu.usd)).toBe(100_000 - first.totalSendingAmount);

    // Trust the payee (an SCA proof bound to that change), then pay it without a challenge.
    const trust = await sys.api(`/customers/external-accounts/${eu.payee}/trust`, { method: 'POST' });
    expect(trust.body.scaChallenge).toMatchObject({ id: expect.any(String) });
    const trusted = await sys.api(`/customers/external-accounts/${eu.payee}/trust/confirm`, {
      method: 'POST',
      json: { challengeId: trust.body.scaChallenge.id, code: '123456' },
    });
    expect(trusted.body).toEqual({ trusted: true });
    const second = (await sys.api('/quotes', { method: 'POST', json: accountQuote(eu.usd, eu.payee, 2000) })).body;
    const paid = await sys.api(`/quotes/${second.id}/execute`, { method: 'POST' });
    expect(paid.body.status).toBe('PROCESSING');
    expect(paid.body).not.toHaveProperty('scaChallenge');
    expect(await balanceOf(sys, eu.id, eu.usd)).toBe(100_000 - first.totalSendingAmount - second.totalSendingAmount);

    // A US customer: SCA is not theirs (409), and their payment executes at once.
    const us = await newCustomer('US');
    expectError(await sca('/sca/factors', us.id), 409, 'CONFLICT');
    expectError(await sca('/sca/login/start', us.id, { factor: 'SMS_OTP' }), 409, 'CONFLICT');
    expectError(await sys.api(`/customers/external-accounts/${us.payee}/trust`, { method: 'POST' }), 409, 'CONFLICT');
    const usQuote = (await sys.api('/quotes', { method: 'POST', json: accountQuote(us.usd, us.payee, 1000) })).body;
    const usPaid = await sys.api(`/quotes/${usQuote.id}/execute`, { method: 'POST' });
    expect(usPaid.body.status).toBe('PROCESSING');
    expectError(
      await sys.api(`/quotes/${usQuote.id}/authorize`, { method: 'POST', json: { code: '123456' } }),
      409,
      'CONFLICT',
    );
  },
);
