import {
  encodeToUrl,
  getSignableLnurlpRequestPayload,
  getSignedLnurlpRequestUrl,
  InMemoryNonceValidator,
  LnurlpResponse,
  PubKeyResponse,
  signPayload,
  verifyUmaLnurlpResponseSignature,
  type LnurlpRequest,
} from '@uma-sdk/core';
import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startForeignVasp, type ForeignVasp } from '../fixtures/foreign-vasp';
import { startTestSystem, type TestSystem } from '../system-harness';
import { chooseOutcome } from './kyc-fixtures';

/**
 * Our receiving side as a foreign VASP sees it, driven only with the UMA SDK's client functions:
 * our published keys, a signed lnurlp request and its signed answer, and every refusal.
 */
const UMA_DOMAIN = 'localhost:7411';
const BOB = `$bob.uma@${UMA_DOMAIN}`;

let sys: TestSystem;
let vasp: ForeignVasp;
let ourKeys: PubKeyResponse;

/** The SDK addresses our domain; the request goes to the test system's real port. */
const toUs = (url: URL) => `${sys.rootUrl}${url.pathname}${url.search}`;

async function get(url: URL): Promise<{ status: number; body: any }> {
  const res = await fetch(toUs(url));
  return { status: res.status, body: await res.json() };
}

const signedLookup = (receiverAddress = BOB, umaVersionOverride?: string) =>
  getSignedLnurlpRequestUrl({
    isSubjectToTravelRule: true,
    receiverAddress,
    senderVaspDomain: vasp.domain,
    signingPrivateKey: vasp.signing.privateKey,
    umaVersionOverride,
  });

/** A request signed by the SDK with a timestamp of our choosing. */
async function signedAt(timestamp: Date): Promise<URL> {
  const request: LnurlpRequest = {
    receiverAddress: BOB,
    isSubjectToTravelRule: true,
    vaspDomain: vasp.domain,
    timestamp,
    nonce: `n-${Math.random()}`,
    signature: '',
    umaVersion: '1.0',
  };
  request.signature = await signPayload(getSignableLnurlpRequestPayload(request), vasp.signing.privateKey);
  return encodeToUrl(request);
}

/** A customer's consent to the current end-user terms. */
async function consent() {
  const terms = await sys.api('/customers/end-user-terms');
  return {
    acceptedAt: new Date().toISOString(),
    ipAddress: '203.0.113.7',
    termsVersion: terms.body.version,
    acceptanceMethod: 'CHECKBOX',
  };
}

beforeAll(async () => {
  vasp = await startForeignVasp();
  sys = await startTestSystem({ env: { UMA_DOMAIN } });
  const created = await sys.api('/customers', {
    method: 'POST',
    json: {
      ...INDIVIDUAL_CUSTOMER,
      platformCustomerId: `uma-recv-${process.pid}`,
      endUserTermsConsent: await consent(),
      umaAddress: BOB,
    },
  });
  expect(created).toEqual(expect.objectContaining({ status: 201 }));
  const keys = await fetch(`${sys.rootUrl}/.well-known/lnurlpubkey`);
  expect(keys.status).toBe(200);
  ourKeys = PubKeyResponse.fromJson(await keys.text());
}, 120_000);

afterAll(async () => {
  await sys?.stop();
  await vasp?.stop();
});

describe('our UMA receiving side, driven by the SDK', () => {
  it('publishes its signing and encryption keys with their certificate chains, without credentials', () => {
    expect(ourKeys.signingCertChain?.[0].subject).toBe(`CN=${UMA_DOMAIN}`);
    expect(ourKeys.encryptionCertChain?.[0].subject).toBe(`CN=${UMA_DOMAIN}`);
    expect(Buffer.from(ourKeys.getSigningPubKey())).not.toEqual(Buffer.from(ourKeys.getEncryptionPubKey()));
  });

  it('answers a signed lnurlp request with a signed response the SDK verifies', async () => {
    const { status, body } = await get(await signedLookup());
    expect(status).toBe(200);
    const response = LnurlpResponse.fromJson(JSON.stringify(body));
    expect(await verifyUmaLnurlpResponseSignature(response, ourKeys, new InMemoryNonceValidator(Date.now() - 60_000)))
      .toBe(true);
    expect(response.compliance?.receiverIdentifier).toBe(BOB);
    expect(response.umaVersion).toBe('1.0');
    const usd = response.currencies?.find((c) => c.code === 'USD');
    // The sandbox rate: 1 USD = 0.00001 BTC = 1,000,000 msats, so 10,000 msats a cent.
    expect(usd).toEqual(expect.objectContaining({ multiplier: 10_000, decimals: 2, minSendable: 1 }));
    expect(response.callback).toBe(`http://${UMA_DOMAIN}/uma/payreq/bob.uma`);
    expect(response.payerData?.compliance?.mandatory).toBe(true);
    expect(response.minSendable).toBe(1000);
  });

  it("asks for the payer data the receiving platform's configuration requires, on top of compliance's", async () => {
    const config = await sys.api('/config');
    const supportedCurrencies = config.body.supportedCurrencies.map((c: Record<string, unknown>) => ({
      currencyCode: c.currencyCode,
      minAmount: c.minAmount,
      maxAmount: c.maxAmount,
      enabledTransactionTypes: c.enabledTransactionTypes,
      requiredCounterpartyFields: c.currencyCode === 'USD'
        ? [{ name: 'BIRTH_DATE', mandatory: true }, { name: 'TAX_ID', mandatory: false }, {
          name: 'FULL_NAME',
          mandatory: true,
        }]
        : c.requiredCounterpartyFields,
    }));
    expect((await sys.api('/config', { method: 'PATCH', json: { supportedCurrencies } })).status).toBe(200);
    const { status, body } = await get(await signedLookup());
    expect(status).toBe(200);
    expect(LnurlpResponse.fromJson(JSON.stringify(body)).payerData).toEqual({
      identifier: { mandatory: true },
      compliance: { mandatory: true },
      email: { mandatory: false },
      name: { mandatory: true },
      birthDate: { mandatory: true },
      TAX_ID: { mandatory: false },
    });
  });

  it('refuses a replayed request (the same nonce) and a stale or future timestamp', async () => {
    const url = await signedLookup();
    expect((await get(url)).status).toBe(200);
    const replay = await get(url);
    expect(replay).toEqual({ status: 400, body: expect.objectContaining({ status: 'ERROR', code: 'INVALID_NONCE' }) });
    const stale = await get(await signedAt(new Date(Date.now() - 10 * 60_000)));
    expect(stale).toEqual({ status: 400, body: expect.objectContaining({ code: 'INVALID_NONCE' }) });
    const ahead = await get(await signedAt(new Date(Date.now() + 10 * 60_000)));
    expect(ahead.body.code).toBe('INVALID_NONCE');
  });

  it('refuses a wrong signature', async () => {
    const url = await signedLookup();
    const signature = url.searchParams.get('signature')!;
    url.searchParams.set('signature', signature.slice(0, -4) + (signature.endsWith('0000') ? '1111' : '0000'));
    const { status, body } = await get(url);
    expect(status).toBe(401);
    expect(body.code).toBe('INVALID_SIGNATURE');
  });

  it('answers an unsupported version with the versions it supports (the negotiation answer)', async () => {
    const { status, body } = await get(await signedLookup(BOB, '9.0'));
    expect(status).toBe(412);
    expect(body).toEqual(
      expect.objectContaining({
        code: 'UNSUPPORTED_UMA_VERSION',
        supportedMajorVersions: expect.arrayContaining([1, 0]),
      }),
    );
  });

  it('refuses a request without the UMA parameters, or with only some of them', async () => {
    expect((await fetch(`${sys.rootUrl}/.well-known/lnurlp/bob.uma`)).status).toBe(403);
    const partial = await signedLookup();
    partial.searchParams.delete('nonce');
    expect((await get(partial)).body.code).toBe('MISSING_REQUIRED_UMA_PARAMETERS');
  });

  it('answers USER_NOT_FOUND for an address nobody holds', async () => {
    const { status, body } = await get(await signedLookup(`$nobody@${UMA_DOMAIN}`));
    expect(status).toBe(404);
    expect(body.code).toBe('USER_NOT_FOUND');
  });

  it('answers for a customer whose KYC was rejected exactly as for an unknown address', async () => {
    const carol = `$carol.kyc@${UMA_DOMAIN}`;
    const created = await sys.api('/customers', {
      method: 'POST',
      json: {
        ...INDIVIDUAL_CUSTOMER,
        platformCustomerId: `uma-kyc-${process.pid}`,
        umaAddress: carol,
        endUserTermsConsent: await consent(),
      },
    });
    expect(created.status).toBe(201);
    expect((await get(await signedLookup(carol))).status).toBe(200);
    const link = await sys.api(`/customers/${created.body.id}/kyc-link`, { method: 'POST' });
    await chooseOutcome(sys, link.body.kycUrl, 'REJECT');
    for (let i = 0; (await sys.api(`/customers/${created.body.id}`)).body.kycStatus !== 'REJECTED'; i++) {
      if (i > 400) throw new Error('the customer was never REJECTED');
      await new Promise((r) => setTimeout(r, 25));
    }
    const blocked = await get(await signedLookup(carol));
    const unknown = await get(await signedLookup(`$carol.nobody@${UMA_DOMAIN}`));
    expect(blocked.status).toBe(404);
    expect({ ...blocked, body: { ...blocked.body, reason: blocked.body.reason.replace('carol.kyc', 'carol.nobody') } })
      .toEqual(unknown);
  });

  it('refuses a sending VASP whose key endpoint fails, or lies about its key', async () => {
    const other = await startForeignVasp();
    try {
      other.state.keyAnswer = 'FAIL';
      const url = await getSignedLnurlpRequestUrl({
        isSubjectToTravelRule: true,
        receiverAddress: BOB,
        senderVaspDomain: other.domain,
        signingPrivateKey: other.signing.privateKey,
      });
      expect(await get(url)).toEqual({
        status: 424,
        body: expect.objectContaining({ code: 'COUNTERPARTY_PUBKEY_FETCH_ERROR' }),
      });
      other.state.keyAnswer = 'LIE';
      const lied = await getSignedLnurlpRequestUrl({
        isSubjectToTravelRule: true,
        receiverAddress: BOB,
        senderVaspDomain: other.domain,
        signingPrivateKey: other.signing.privateKey,
      });
      expect(await get(lied)).toEqual({ status: 401, body: expect.objectContaining({ code: 'INVALID_SIGNATURE' }) });
    } finally {
      await other.stop();
    }
  });
});
