import {
  getPayRequest,
  getPostTransactionCallback,
  InMemoryNonceValidator,
  KycStatus,
  PayReqResponse,
  PubKeyResponse,
  verifyPayReqResponseSignature,
} from '@uma-sdk/core';
import { startForeignVasp, type ForeignVasp } from '../fixtures/foreign-vasp';
import { startWebhookReceiver, type ReceiverAnswer, type WebhookReceiver } from '../fixtures/webhook-receiver';
import { startTestSystem, type TestSystem } from '../system-harness';
import { chooseOutcome } from './kyc-fixtures';
import { balanceOf, FAST_SETTLEMENT, payingCustomer, transactionWhen } from './payments-fixtures';

/**
 * An UMA payment from a foreign VASP to our customer, the foreign VASP driven only with the SDK's
 * client functions: its signed pay request (travel-rule data encrypted to our key), our platform's
 * approval webhook, our signed invoice, its signed post-transaction callback, the credit.
 */
const UMA_DOMAIN = 'localhost:7412';
const BOB = `$bob.pay@${UMA_DOMAIN}`;
const TRAVEL_RULE = { FULL_NAME: 'Alice Foreign', COUNTRY_OF_RESIDENCE: 'FR' };

let sys: TestSystem;
let vasp: ForeignVasp;
let receiver: WebhookReceiver;
let ourKeys: PubKeyResponse;
let bob: { customerId: string; usdAccountId: string };
const answers = new Map<number, ReceiverAnswer>();

const alice = () => `$alice@${vasp.domain}`;

async function payRequest(
  amountCents: number,
  options: { sender?: ForeignVasp; trInfo?: string; requestedPayeeData?: Record<string, { mandatory: boolean }> } = {},
) {
  const from = options.sender ?? vasp;
  return getPayRequest({
    receiverEncryptionPubKey: ourKeys.getEncryptionPubKey(),
    sendingVaspPrivateKey: from.signing.privateKey,
    receivingCurrencyCode: 'USD',
    amount: amountCents,
    isAmountInReceivingCurrency: true,
    payerIdentifier: `$alice@${from.domain}`,
    payerKycStatus: KycStatus.Verified,
    umaMajorVersion: 1,
    trInfo: options.trInfo ?? JSON.stringify(TRAVEL_RULE),
    payerData: { name: 'Alice Foreign' },
    ...(options.requestedPayeeData ? { requestedPayeeData: options.requestedPayeeData } : {}),
  });
}

async function post(path: string, body: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sys.rootUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

const incomingOf = async () =>
  (await sys.api(`/transactions?customerId=${bob.customerId}&type=INCOMING&limit=100`)).body.data as any[];

beforeAll(async () => {
  vasp = await startForeignVasp();
  sys = await startTestSystem({
    env: {
      UMA_DOMAIN,
      ...FAST_SETTLEMENT,
      UMA_SETTLEMENT_POLL_MS: '20',
      INCOMING_APPROVAL_ANSWER_MS: '12000',
      UMA_APPROVAL_WAIT_MS: '3000',
    },
  });
  receiver = await startWebhookReceiver({ publicKeyPem: (await sys.api('/webhooks/public-key')).body.publicKeyPem });
  receiver.answerWith((w) => {
    const amount = (w.data as { receivedAmount?: { amount?: number } }).receivedAmount?.amount;
    return w.type === 'INCOMING_PAYMENT.PENDING' && amount !== undefined ? answers.get(amount) : undefined;
  });
  expect((await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: receiver.url } })).status).toBe(200);
  bob = await payingCustomer(sys, { umaAddress: BOB });
  ourKeys = PubKeyResponse.fromJson(await (await fetch(`${sys.rootUrl}/.well-known/lnurlpubkey`)).text());
}, 120_000);

afterAll(async () => {
  await sys?.stop();
  await receiver?.close();
  await vasp?.stop();
});

describe('a foreign VASP pays our customer over UMA', () => {
  it('approved by the platform: a signed invoice, then the signed post-transaction callback credits bob', async () => {
    answers.set(1_234, { status: 200, body: {} });
    const before = await balanceOf(sys, bob.customerId, bob.usdAccountId);
    const request = await payRequest(1_234);
    const answered = await post('/uma/payreq/bob.pay', request.toJsonString());
    expect(answered.status).toBe(200);
    const response = PayReqResponse.fromJson(JSON.stringify(answered.body));
    expect(
      await verifyPayReqResponseSignature(
        response,
        alice(),
        BOB,
        ourKeys,
        new InMemoryNonceValidator(Date.now() - 60_000),
      ),
    ).toBe(true);
    expect(response.converted).toEqual(
      expect.objectContaining({ amount: 1_234, currencyCode: 'USD', multiplier: 10_000, fee: 0 }),
    );

    // The platform was asked, with the sender's travel-rule data decrypted.
    const asked = receiver.arrivals.find((w) =>
      w.type === 'INCOMING_PAYMENT.PENDING' && (w.data as any).receivedAmount?.amount === 1_234
    )!;
    expect(asked.data).toMatchObject({
      status: 'PENDING',
      type: 'INCOMING',
      counterpartyInformation: { FULL_NAME: 'Alice Foreign', COUNTRY_OF_RESIDENCE: 'FR' },
    });
    const id = asked.data.id as string;
    // Nothing is credited before the invoice is paid.
    await new Promise((r) => setTimeout(r, 300));
    expect(await balanceOf(sys, bob.customerId, bob.usdAccountId)).toBe(before);

    const paymentHash = response.pr.split(':')[1];
    const callback = await getPostTransactionCallback({
      utxos: [{ utxo: `${paymentHash}:0`, amountMsats: 12_340_000 }],
      vaspDomain: vasp.domain,
      signingPrivateKey: vasp.signing.privateKey,
    });
    const reported = await post(
      response.payeeData!.compliance!.utxoCallback!.replace(`http://${UMA_DOMAIN}`, ''),
      JSON.stringify(callback),
    );
    expect(reported.status).toBe(200);
    const done = await transactionWhen(sys, id, (t) => t.status === 'COMPLETED');
    expect(done.source).toEqual(expect.objectContaining({ sourceType: 'UMA_ADDRESS', umaAddress: alice() }));
    expect(await balanceOf(sys, bob.customerId, bob.usdAccountId)).toBe(before + 1_234);
    await receiver.waitFor(() =>
      receiver.arrivals.some((w) => w.type === 'INCOMING_PAYMENT.COMPLETED' && w.data.id === id)
    );

    // The same callback again (a replay) is refused and credits nothing more.
    expect((await post(`/uma/post-transaction/${id}`, JSON.stringify(callback))).body.code).toBe('INVALID_NONCE');
    await new Promise((r) => setTimeout(r, 200));
    expect(await balanceOf(sys, bob.customerId, bob.usdAccountId)).toBe(before + 1_234);
  });

  it('refused by the platform (403): SENDER_NOT_ACCEPTED, no invoice, nothing credited', async () => {
    answers.set(1_235, { status: 403, body: {} });
    const before = await balanceOf(sys, bob.customerId, bob.usdAccountId);
    const answered = await post('/uma/payreq/bob.pay', (await payRequest(1_235)).toJsonString());
    expect(answered).toEqual({
      status: 400,
      body: expect.objectContaining({ status: 'ERROR', code: 'SENDER_NOT_ACCEPTED' }),
    });
    const failed = (await incomingOf()).find((t) => t.receivedAmount.amount === 1_235);
    expect(failed.status).toBe('FAILED');
    expect(await balanceOf(sys, bob.customerId, bob.usdAccountId)).toBe(before);
  });

  it('a platform not deciding within UMA_APPROVAL_WAIT_MS (202, then nothing): refused, payment failed', async () => {
    answers.set(1_236, { status: 202, body: {} });
    const answered = await post('/uma/payreq/bob.pay', (await payRequest(1_236)).toJsonString());
    expect(answered).toEqual({
      status: 400,
      body: expect.objectContaining({
        code: 'SENDER_NOT_ACCEPTED',
        reason: 'the receiving platform did not decide in time',
      }),
    });
    const failed = (await incomingOf()).find((t) => t.receivedAmount.amount === 1_236);
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
  });

  it('refuses bad pay requests, each with its code, creating no transaction', async () => {
    const count = (await incomingOf()).length;
    // The protocol signs the payer identifier, nonce and timestamp: a signature not made by the sender's key is
    // refused.
    const tampered = JSON.parse((await payRequest(1_300)).toJsonString());
    const signature: string = tampered.payerData.compliance.signature;
    tampered.payerData.compliance.signature = signature.slice(0, -4) + (signature.endsWith('0000') ? '1111' : '0000');
    expect((await post('/uma/payreq/bob.pay', JSON.stringify(tampered))).body.code).toBe('INVALID_SIGNATURE');
    const once = (await payRequest(1_301)).toJsonString();
    answers.set(1_301, { status: 403 });
    await post('/uma/payreq/bob.pay', once);
    expect((await post('/uma/payreq/bob.pay', once)).body.code).toBe('INVALID_NONCE');
    expect((await post('/uma/payreq/bob.pay', '{"amount": "lots"')).body.code).toBe('PARSE_PAYREQ_REQUEST_ERROR');
    expect((await post('/uma/payreq/bob.pay', JSON.stringify({ amount: 5, convert: 'USD' }))).body.code).toBe(
      'NON_UMA_LNURL_NOT_SUPPORTED',
    );
    const oversize = await post('/uma/payreq/bob.pay', JSON.stringify({ padding: 'x'.repeat(20_000) }));
    expect(oversize).toEqual({ status: 413, body: expect.objectContaining({ code: 'INVALID_REQUEST_FORMAT' }) });
    expect((await post('/uma/payreq/nobody', (await payRequest(1_302)).toJsonString())).body.code).toBe(
      'USER_NOT_FOUND',
    );
    expect((await post('/uma/payreq/%E0%A4%A', (await payRequest(1_303)).toJsonString())).status).toBe(400);
    expect((await post('/uma/post-transaction/%E0%A4%A', '{}')).status).toBe(400);
    expect((await incomingOf()).length).toBe(count + 1);
  });

  it("sends back the payee data the sender asked for, from the platform's receiverCustomerInfo, signed", async () => {
    answers.set(1_240, {
      status: 200,
      body: { receiverCustomerInfo: { FULL_NAME: 'Bob Payee', EMAIL: 'bob@pay.example', BIRTH_DATE: '1990-01-01' } },
    });
    const request = await payRequest(1_240, {
      requestedPayeeData: {
        name: { mandatory: true },
        email: { mandatory: false },
        identifier: { mandatory: true },
        compliance: { mandatory: true },
      },
    });
    const answered = await post('/uma/payreq/bob.pay', request.toJsonString());
    expect(answered.status).toBe(200);
    const asked = receiver.arrivals.find((w) =>
      w.type === 'INCOMING_PAYMENT.PENDING' && (w.data as any).receivedAmount?.amount === 1_240
    )!;
    expect(asked.data.requestedReceiverCustomerInfoFields).toEqual([{ name: 'FULL_NAME', mandatory: true }, {
      name: 'EMAIL',
      mandatory: false,
    }]);
    const response = PayReqResponse.fromJson(JSON.stringify(answered.body));
    expect(
      await verifyPayReqResponseSignature(
        response,
        alice(),
        BOB,
        ourKeys,
        new InMemoryNonceValidator(Date.now() - 60_000),
      ),
    ).toBe(true);
    expect(response.payeeData).toMatchObject({ name: 'Bob Payee', email: 'bob@pay.example' });
    expect(response.payeeData).not.toHaveProperty('birthDate');
    expect(JSON.stringify(answered.body)).not.toContain('1990-01-01');
  });

  it('a customer whose KYC was rejected answers exactly as an unknown one, and nothing is created', async () => {
    const dora = await payingCustomer(sys, { umaAddress: `$dora.pay@${UMA_DOMAIN}` });
    const link = await sys.api(`/customers/${dora.customerId}/kyc-link`, { method: 'POST' });
    await chooseOutcome(sys, link.body.kycUrl, 'REJECT');
    for (let i = 0; (await sys.api(`/customers/${dora.customerId}`)).body.kycStatus !== 'REJECTED'; i++) {
      if (i > 400) throw new Error('the customer was never REJECTED');
      await new Promise((r) => setTimeout(r, 25));
    }
    const blocked = await post('/uma/payreq/dora.pay', (await payRequest(1_304)).toJsonString());
    const unknown = await post('/uma/payreq/nobody.pay', (await payRequest(1_305)).toJsonString());
    expect(blocked.status).toBe(404);
    expect({ ...blocked, body: { ...blocked.body, reason: blocked.body.reason.replace('dora.pay', 'nobody.pay') } })
      .toEqual(unknown);
    const incoming = await sys.api(`/transactions?customerId=${dora.customerId}&type=INCOMING`);
    expect(incoming.body.data).toEqual([]);
  });
});
