import { createHash, randomBytes } from 'node:crypto';
import {
  Currency,
  getLnurlpResponse,
  getPayReqResponse,
  InMemoryNonceValidator,
  InMemoryPublicKeyCache,
  KycStatus,
  parseLnurlpRequest,
  parsePostTransactionCallback,
  PayRequest,
  PubKeyResponse,
  UmaError,
  UnsupportedVersionError,
  verifyPayReqSignature,
  verifyPostTransactionCallbackSignature,
  verifyUmaLnurlpQuerySignature,
  type PostTransactionCallback,
} from '@uma-sdk/core';
import { decrypt } from 'eciesjs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startForeignVasp, type ForeignVasp } from '../fixtures/foreign-vasp';
import { startTestSystem, type TestSystem } from '../system-harness';
import { balanceOf, expectError, FAST_SETTLEMENT, fund, payingCustomer, transactionWhen } from './payments-fixtures';

/**
 * Our sending side against a minimal foreign VASP built only from the UMA SDK's server functions
 * (none of our code): it answers lnurlp, pay requests and post-transaction callbacks, with invoices
 * in the sandbox node's form (the sandbox Lightning leg; docs/uma.md).
 */
const UMA_DOMAIN = 'localhost:7413';

let sys: TestSystem;
let vasp: ForeignVasp;
let alice: { customerId: string; usdAccountId: string };
const cache = new InMemoryPublicKeyCache();
const nonces = new InMemoryNonceValidator(Date.now() - 60_000);
const state = {
  behaviour: 'NORMAL' as 'NORMAL' | 'REFUSE' | 'WRONG_SIGNER' | 'NO_VERSION' | 'CALLBACK_DOWN',
  travelRule: [] as string[],
  callbacks: [] as PostTransactionCallback[],
};

const json = (res: ServerResponse, status: number, body: string) =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(body);
const refuse = (res: ServerResponse, err: unknown) => {
  if (err instanceof UmaError) return json(res, err.toHttpStatusCode(), err.toJSON());
  json(res, 500, JSON.stringify({ status: 'ERROR', reason: String(err) }));
};
const ourKeys = () => cache.fetchPublicKeyForVasp(UMA_DOMAIN)!;

async function lnurlp(req: IncomingMessage, _body: string, res: ServerResponse) {
  try {
    if (state.behaviour === 'NO_VERSION') throw new UnsupportedVersionError('1.0', []);
    const request = parseLnurlpRequest(new URL(req.url!, `http://${vasp.domain}`));
    if (!(await verifyUmaLnurlpQuerySignature(request, ourKeys(), nonces))) {
      return json(res, 401, '{"status":"ERROR","code":"INVALID_SIGNATURE"}');
    }
    const signer = state.behaviour === 'WRONG_SIGNER' ? randomBytes(32) : vasp.signing.privateKey;
    const response = await getLnurlpResponse({
      request,
      privateKeyBytes: signer,
      requiresTravelRuleInfo: true,
      callback: `http://${vasp.domain}/payreq/carol`,
      encodedMetadata: JSON.stringify([['text/plain', 'Pay carol']]),
      minSendableSats: 1,
      maxSendableSats: 10_000_000,
      payerDataOptions: { name: { mandatory: true }, identifier: { mandatory: true }, compliance: { mandatory: true } },
      currencyOptions: [new Currency('EUR', 'Euros', '€', 11_000, 250, 400_000, 2)],
      receiverKycStatus: KycStatus.Verified,
    });
    json(res, 200, response.toJsonString());
  } catch (err) {
    refuse(res, err);
  }
}

async function payreq(_req: IncomingMessage, body: string, res: ServerResponse) {
  try {
    const request = PayRequest.fromJson(body);
    if (!(await verifyPayReqSignature(request, ourKeys(), nonces))) {
      return json(res, 401, '{"status":"ERROR","code":"INVALID_SIGNATURE"}');
    }
    const encrypted = request.payerData?.compliance?.encryptedTravelRuleInfo;
    if (encrypted) {
      state.travelRule.push(
        Buffer.from(decrypt(vasp.encryption.privateKey, Buffer.from(encrypted, 'hex'))).toString('utf8'),
      );
    }
    if (state.behaviour === 'REFUSE') {
      return json(res, 400, '{"status":"ERROR","reason":"not this sender","code":"SENDER_NOT_ACCEPTED"}');
    }
    const response = await getPayReqResponse({
      request,
      conversionRate: 11_000,
      receivingCurrencyCode: 'EUR',
      receivingCurrencyDecimals: 2,
      receiverFeesMillisats: 0,
      receiverChannelUtxos: [],
      receivingVaspPrivateKey: vasp.signing.privateKey,
      payeeIdentifier: `$carol@${vasp.domain}`,
      metadata: JSON.stringify([['text/plain', 'Pay carol']]),
      utxoCallback: `http://${vasp.domain}/utxo/1`,
      invoiceCreator: {
        createUmaInvoice: async (msats) =>
          `lnsandbox${msats}:${createHash('sha256').update(randomBytes(32)).digest('hex')}`,
      },
    });
    json(res, 200, response.toJsonString());
  } catch (err) {
    refuse(res, err);
  }
}

async function utxo(_req: IncomingMessage, body: string, res: ServerResponse) {
  try {
    if (state.behaviour === 'CALLBACK_DOWN') return json(res, 503, '{"status":"ERROR","reason":"down"}');
    const callback = parsePostTransactionCallback(body);
    if (!(await verifyPostTransactionCallbackSignature(callback, ourKeys(), nonces))) {
      return json(res, 401, '{"status":"ERROR","code":"INVALID_SIGNATURE"}');
    }
    state.callbacks.push(callback);
    json(res, 200, '{}');
  } catch (err) {
    refuse(res, err);
  }
}

const lookup = (address: string) =>
  sys.api(`/receiver/uma/${encodeURIComponent(address)}?customerId=${alice.customerId}`);
const quote = (lookupId: string, address: string) =>
  sys.api('/quotes', {
    method: 'POST',
    json: {
      lookupId,
      source: { sourceType: 'ACCOUNT', accountId: alice.usdAccountId },
      senderCustomerInfo: { FULL_NAME: 'Alice Sender' },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'EUR' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 1_000,
    },
  });

beforeAll(async () => {
  vasp = await startForeignVasp({ routes: { '/.well-known/lnurlp/': lnurlp, '/payreq/': payreq, '/utxo/': utxo } });
  sys = await startTestSystem({
    env: { UMA_DOMAIN, ...FAST_SETTLEMENT, UMA_SETTLEMENT_POLL_MS: '20', UMA_PAYMENT_GIVE_UP_SECONDS: '3' },
  });
  // The foreign VASP knows our keys (read from our /.well-known/lnurlpubkey; our domain here is a name only).
  cache.addPublicKeyForVasp(
    UMA_DOMAIN,
    PubKeyResponse.fromJson(await (await fetch(`${sys.rootUrl}/.well-known/lnurlpubkey`)).text()),
  );
  alice = await payingCustomer(sys, { umaAddress: `$alice@${UMA_DOMAIN}` });
  await fund(sys, alice.usdAccountId, 100_000);
}, 120_000);

afterAll(async () => {
  await sys?.stop();
  await vasp?.stop();
});

beforeEach(() => {
  state.behaviour = 'NORMAL';
});

describe('our sending side against a foreign VASP made of the SDK', () => {
  it(
    'looks up, quotes (pay request with encrypted travel-rule '
      + 'data), executes: the invoice paid once, the callback signed',
    async () => {
      const carol = `$carol@${vasp.domain}`;
      const found = await lookup(carol);
      expect(found.status).toBe(200);
      const quoted = await quote(found.body.lookupId, carol);
      expect(quoted.status).toBe(201);
      expect(quoted.body).toMatchObject({ totalReceivingAmount: 1_000, receivingCurrency: { code: 'EUR' } });
      expect(JSON.parse(state.travelRule.at(-1)!)).toMatchObject({ name: 'Alice Sender', FULL_NAME: 'Alice Sender' });
      expect((await sys.api(`/quotes/${quoted.body.id}/execute`, { method: 'POST' })).status).toBe(200);
      const done = await transactionWhen(sys, quoted.body.transactionId, (t) => t.status === 'COMPLETED');
      expect(done.sentAmount.amount).toBe(quoted.body.totalSendingAmount);
      expect(await balanceOf(sys, alice.customerId, alice.usdAccountId)).toBe(100_000 - quoted.body.totalSendingAmount);
      expect(state.callbacks).toHaveLength(1);
      expect(state.callbacks[0]).toMatchObject({ vaspDomain: UMA_DOMAIN, utxos: [{ amountMsats: 11_000_000 }] });
    },
  );

  it("offers the receiver's own bounds, and a quote outside them is refused before any pay request", async () => {
    const carol = `$carol@${vasp.domain}`;
    const found = await lookup(carol);
    expect(found.status).toBe(200);
    const eur = found.body.supportedCurrencies.find((c: { currency: { code: string } }) => c.currency.code === 'EUR');
    expect(eur).toMatchObject({ min: 250, max: 400_000 });
    const payRequests = state.travelRule.length;
    const tooMuch = await sys.api('/quotes', {
      method: 'POST',
      json: {
        lookupId: found.body.lookupId,
        source: { sourceType: 'ACCOUNT', accountId: alice.usdAccountId },
        senderCustomerInfo: { FULL_NAME: 'Alice Sender' },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: carol, currency: 'EUR' },
        lockedCurrencySide: 'RECEIVING',
        lockedCurrencyAmount: 400_001,
      },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', details: { min: 250, max: 400_000 } });
    expect(state.travelRule).toHaveLength(payRequests);
  });

  it("maps the counterparty's failures: bad signature, failing key endpoint, no common version, refusal", async () => {
    const carol = `$carol@${vasp.domain}`;
    const before = await balanceOf(sys, alice.customerId, alice.usdAccountId);
    state.behaviour = 'WRONG_SIGNER';
    expectError(await lookup(carol), 424, 'LNURLP_REQUEST_FAILED');
    state.behaviour = 'NO_VERSION';
    expectError(await lookup(carol), 412, 'UNSUPPORTED_UMA_VERSION');
    state.behaviour = 'NORMAL';
    vasp.state.keyAnswer = 'FAIL';
    expectError(await lookup(carol), 424, 'COUNTERPARTY_PUBKEY_FETCH_ERROR');
    vasp.state.keyAnswer = 'TRUE';
    const found = await lookup(carol);
    state.behaviour = 'REFUSE';
    expectError(await quote(found.body.lookupId, carol), 400, 'SENDER_NOT_ACCEPTED');
    expect(await balanceOf(sys, alice.customerId, alice.usdAccountId)).toBe(before);
  });

  it(
    'a payment the receiver never hears of (sandbox) is given up after UMA_PAYMENT_GIVE_UP_SECONDS and refunded once',
    async () => {
      const carol = `$carol@${vasp.domain}`;
      const before = await balanceOf(sys, alice.customerId, alice.usdAccountId);
      const quoted = await quote((await lookup(carol)).body.lookupId, carol);
      expect(quoted.status).toBe(201);
      state.behaviour = 'CALLBACK_DOWN';
      expect((await sys.api(`/quotes/${quoted.body.id}/execute`, { method: 'POST' })).status).toBe(200);
      expect(await balanceOf(sys, alice.customerId, alice.usdAccountId)).toBe(before - quoted.body.totalSendingAmount);
      const failed = await transactionWhen(
        sys,
        quoted.body.transactionId,
        (t) => t.status === 'FAILED' && t.refund?.status === 'COMPLETED',
        20_000,
      );
      expect(failed).toMatchObject({ status: 'FAILED', refund: { status: 'COMPLETED' } });
      expect(await balanceOf(sys, alice.customerId, alice.usdAccountId)).toBe(before);
      await new Promise((r) => setTimeout(r, 300));
      expect(await balanceOf(sys, alice.customerId, alice.usdAccountId)).toBe(before);
    },
    40_000,
  );
});
