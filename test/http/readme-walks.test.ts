import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { turnkeyCrypto, ApiKeyStamper } from '../../services/auth/domain/wallet-crypto/turnkey-client.fixture';
import { startTestSystem, type TestSystem } from '../system-harness';
import { FAST_SETTLEMENT, transactionWhen } from './payments-fixtures';

/**
 * The walk-throughs of the README and docs/ (getting-started, api/embedded-wallets, api/invitations),
 * request for request, against a fresh system with nothing configured: what a new user copies from
 * them must work as written.
 */
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({ env: FAST_SETTLEMENT });
});
afterAll(async () => {
  await sys.stop();
});

const post = (path: string, json?: unknown, headers?: Record<string, string>) =>
  sys.api(path, { method: 'POST', json, headers });

test('README "A first payment with curl": four steps, the payment completes', async () => {
  // 1. a sender customer
  const sender = (await post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: 'sender-1',
    fullName: 'Jane Smith',
    email: 'jane@example.com',
    birthDate: '1990-01-15',
    nationality: 'US',
  })).body.id;
  // 2. a receiving customer with a Mexican bank account (CLABE)
  const receiver = (await post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: 'receiver-1',
    fullName: 'Maria Lopez',
  })).body.id;
  const account = (await post('/customers/external-accounts', {
    customerId: receiver,
    currency: 'MXN',
    accountInfo: {
      accountType: 'MXN_ACCOUNT',
      clabeNumber: '032180000118359719',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Lopez' },
    },
  })).body.id;
  expect(account).toMatch(/^ExternalAccount:/);
  // 3. look it up before paying it
  const lookup = await sys.api(`/receiver/external-account/${account}?customerId=${sender}`);
  expect(lookup.status).toBe(200);
  expect(lookup.body.lookupId).toMatch(/^Lookup:/);
  // 4. accept the terms, fund, quote, execute
  const terms = (await sys.api('/customers/end-user-terms')).body.version;
  const consent = await sys.api(`/customers/${sender}`, {
    method: 'PATCH',
    json: {
      customerType: 'INDIVIDUAL',
      endUserTermsConsent: {
        acceptedAt: '2026-01-01T00:00:00Z',
        ipAddress: '203.0.113.7',
        termsVersion: terms,
        acceptanceMethod: 'CHECKBOX',
      },
    },
  });
  expect(consent.status).toBe(200);
  const source =
    (await sys.api(`/customers/internal-accounts?customerId=${sender}&type=INTERNAL_FIAT&currency=USD`)).body.data[0]
      .id;
  expect((await post(`/sandbox/internal-accounts/${source}/fund`, { amount: 100000 })).status).toBe(200);
  const quote = await post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: account },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10000,
  });
  expect(quote.status).toBe(201);
  const executed = await sys.api(`/quotes/${quote.body.id}/execute`, { method: 'POST' });
  expect(executed.status).toBe(200);
  const settled = await transactionWhen(sys, executed.body.transactionId, (t) => t.status === 'COMPLETED');
  expect(settled.sentAmount.amount).toBe(10000);
});

test('"Signing in with the sandbox email code": a new sandbox customer signs in, nothing configured', async () => {
  const customer = (await post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: 'wallet-walk',
    fullName: 'Ana Wallet',
    email: 'ana@example.com',
  })).body.id;
  const accounts = (await sys.api(`/customers/internal-accounts?customerId=${customer}`)).body.data;
  const wallet = accounts.find((a: { type: string }) => a.type === 'EMBEDDED_WALLET');
  expect(wallet).toBeDefined();
  // 1. pin the enclave key
  const { enclaveQuorumPublic } = (await sys.api('/auth/enclave-public-key')).body;
  // 2. the credential id
  const credentials = (await sys.api(`/auth/credentials?accountId=${wallet.id}`)).body.data;
  expect(credentials).toEqual([expect.objectContaining({ type: 'EMAIL_OTP', nickname: 'ana@example.com' })]);
  const credentialId = credentials[0].id;
  // 3. challenge
  const method = (await post(`/auth/credentials/${credentialId}/challenge`)).body;
  // 4. encrypt the sandbox code to the target
  const key = turnkeyCrypto.generateP256KeyPair();
  const encryptedOtpBundle = await turnkeyCrypto.encryptOtpCodeToBundle(
    '000000',
    method.otpEncryptionTargetBundle,
    key.publicKeyUncompressed,
    enclaveQuorumPublic,
  );
  // 5. verify: 202 with the payload to sign
  const body = { type: 'EMAIL_OTP', encryptedOtpBundle };
  const first = await post(`/auth/credentials/${credentialId}/verify`, body);
  expect(first.status).toBe(202);
  // 6. the stamped retry: 200 AuthSession
  const stamp = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(
    first.body.payloadToSign,
  );
  const session = await post(`/auth/credentials/${credentialId}/verify`, body, {
    'Service-Wallet-Signature': stamp.stampHeaderValue,
    'Request-Id': first.body.requestId,
  });
  expect(session.status).toBe(200);
  expect(session.body).toMatchObject({
    id: expect.stringMatching(/^Session:/),
    accountId: wallet.id,
    type: 'EMAIL_OTP',
  });
});

test('the sandbox platform offers embedded wallets out of the box: GET /config has embeddedWalletConfig', async () => {
  const config = await sys.api('/config');
  expect(config.body.embeddedWalletConfig).toEqual({
    appName: 'Sandbox platform',
    otpLength: 6,
    alphanumeric: false,
    expirationSeconds: 300,
  });
});

test('embedded-wallets.md: only a customer with an email has an EMBEDDED_WALLET; an added email opens it', async () => {
  const customer = (await post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: 'no-email-yet',
    fullName: 'Ben Noemail',
  })).body.id;
  const wallets = async () =>
    (await sys.api(`/customers/internal-accounts?customerId=${customer}&type=EMBEDDED_WALLET`)).body.data;
  expect(await wallets()).toEqual([]);
  const patched = await sys.api(`/customers/${customer}`, {
    method: 'PATCH',
    json: { customerType: 'INDIVIDUAL', email: 'ben@example.com' },
  });
  expect(patched.status).toBe(200);
  expect(await wallets()).toEqual([expect.objectContaining({ type: 'EMBEDDED_WALLET' })]);
});

test(
  'docs/getting-started.md "Running a walk twice": the same platformCustomerId '
    + 'or account number answers 409, a distinct valid CLABE is accepted',
  async () => {
    const body = { customerType: 'INDIVIDUAL', platformCustomerId: 'twice-1', fullName: 'Maria Lopez' };
    const customer = (await post('/customers', body)).body.id;
    expect((await post('/customers', body)).status).toBe(409);
    const account = (clabeNumber: string) =>
      post('/customers/external-accounts', {
        customerId: customer,
        currency: 'MXN',
        accountInfo: {
          accountType: 'MXN_ACCOUNT',
          clabeNumber,
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Lopez' },
        },
      });
    expect((await account('032180000118359719')).status).toBe(201);
    expect((await account('032180000118359719')).body).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect((await account('032180000118359722')).status).toBe(201);
    expect((await account('032180000118359735')).status).toBe(201);
  },
);

test('docs/api/invitations.md: the walk with the local receiver it starts hears INVITATION.CLAIMED', async () => {
  // the walk's receiver: prints (here: keeps) each webhook body, answers 200
  const bodies: string[] = [];
  const hooks = createServer((q: IncomingMessage, s) => {
    const chunks: Buffer[] = [];
    q.on('data', (c: Buffer) => chunks.push(c));
    q.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      s.end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  try {
    const port = (hooks.address() as AddressInfo).port;
    const sender = (await post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'inviter-walk',
      fullName: 'Jane Smith',
      email: 'jane.inviter@example.com',
    })).body.id;
    const customerUma = (await sys.api(`/customers/${sender}`)).body.umaAddress;
    expect(
      (await sys.api('/config', { method: 'PATCH', json: { webhookEndpoint: `http://localhost:${port}/grid` } }))
        .status,
    ).toBe(200);
    const code =
      (await post('/invitations', { inviterUma: customerUma, firstName: 'Alice', amountToSend: 12550 })).body.code;
    const read = await sys.api(`/invitations/${code}`);
    expect(read.body).toMatchObject({ status: 'PENDING', url: `https://uma.me/i/${code}` });
    const claimed = await post(`/invitations/${code}/claim`, { inviteeUma: '$bob@other.example' });
    expect(claimed.body.status).toBe('CLAIMED');
    const heard = () =>
      bodies.map((b) => JSON.parse(b)).find((w) => w.type === 'INVITATION.CLAIMED' && w.data.code === code);
    for (let i = 0; i < 400 && !heard(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(heard()).toBeDefined();
  } finally {
    await new Promise((resolve) => hooks.close(resolve));
  }
});
