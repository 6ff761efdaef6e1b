import { INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, expectError, externalAccount, fund } from './payments-fixtures';

// The SCA read gate is decided by the data an answer would hold: every list and read route, whatever
// filter selects an EU customer's history from before the 90-day window, needs the customer's session.
let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem();
}, 120_000);
afterAll(async () => {
  jest.useRealTimers();
  await sys.stop();
});

const DAY = 86_400_000;
/** Only Date is moved: timers, ticks and the event loop run as usual. */
function clockAt(ms: number) {
  jest.useFakeTimers({
    now: ms,
    advanceTimers: true,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
}

async function oldEuPayment() {
  clockAt(Date.now() - 200 * DAY);
  try {
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
        region: 'FR',
        nationality: 'FR',
        phoneNumber: '+33612345678',
        email: 'walk@example.com',
        platformCustomerId: `sca-walk-${process.pid}`,
        endUserTermsConsent: consent,
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await sys.api(`/customers/${id}/verify-phone`, { method: 'POST' })).status).toBe(204);
    expect(
      (await sys.api(`/customers/${id}/verify-phone/confirm`, { method: 'POST', json: { code: '123456' } })).status,
    ).toBe(200);
    const usd = (await sys.api(`/customers/internal-accounts?customerId=${id}&type=INTERNAL_FIAT&currency=USD`)).body
      .data[0].id as string;
    await fund(sys, usd, 100_000);
    const payee = await externalAccount(sys, id);
    const quote = await sys.api('/quotes', { method: 'POST', json: accountQuote(usd, payee, 1_000) });
    expect(quote.status).toBe(201);
    return {
      id,
      platformCustomerId: created.body.platformCustomerId as string,
      usd,
      payee,
      quoteId: quote.body.id as string,
      transactionId: quote.body.transactionId as string,
    };
  } finally {
    jest.useRealTimers();
  }
}

test(
  "every list and read route refuses an EU customer's old data "
    + 'without a session, whatever the filter; a session opens them all',
  async () => {
    const eu = await oldEuPayment();
    const old = encodeURIComponent(new Date(Date.now() - 300 * DAY).toISOString());
    const q = encodeURIComponent;
    const transactionLists = [
      `customerId=${q(eu.id)}`,
      `platformCustomerId=${q(eu.platformCustomerId)}`,
      `accountIdentifier=${q(eu.usd)}`,
      `senderAccountIdentifier=${q(eu.usd)}`,
      `receiverAccountIdentifier=${q(eu.payee)}`,
      `accountIdentifier=${q(eu.payee)}`,
    ].map((filter) => `/transactions?${filter}`);
    const quoteLists = [`customerId=${q(eu.id)}`, `sendingAccountId=${q(eu.usd)}`, `receivingAccountId=${q(eu.payee)}`]
      .map((filter) => `/quotes?${filter}`);
    const reads = [`/transactions/${eu.transactionId}`, `/quotes/${eu.quoteId}`];
    const ids = (res: { body: any }) => res.body.data.map((t: any) => t.id);

    for (const list of transactionLists) {
      expectError(await sys.api(`${list}&startDate=${old}`), 409, 'SCA_SESSION_REQUIRED');
      const windowOnly = await sys.api(list);
      expect(windowOnly.status).toBe(200);
      expect(ids(windowOnly)).not.toContain(eu.transactionId);
    }
    for (const list of quoteLists) {
      expectError(await sys.api(`${list}&createdAfter=${old}`), 409, 'SCA_SESSION_REQUIRED');
      const windowOnly = await sys.api(list);
      expect(windowOnly.status).toBe(200);
      expect(ids(windowOnly)).not.toContain(eu.quoteId);
    }
    for (const read of reads) expectError(await sys.api(read), 409, 'SCA_SESSION_REQUIRED');
    // A list naming nobody (the platform's whole history) is not gated.
    expect((await sys.api(`/transactions?startDate=${old}`)).status).toBe(200);

    const start = await sys.api(`/sca/login/start?customerId=${eu.id}`, {
      method: 'POST',
      json: { factor: 'SMS_OTP' },
    });
    const login = await sys.api(`/sca/login/complete?customerId=${eu.id}`, {
      method: 'POST',
      json: { factor: 'SMS_OTP', endUserIpAddress: '203.0.113.4', challengeId: start.body.challengeId, code: '123456' },
    });
    expect(login.status).toBe(200);
    for (const list of transactionLists) {
      expect(ids(await sys.api(`${list}&startDate=${old}`))).toContain(eu.transactionId);
    }
    for (const list of quoteLists) expect(ids(await sys.api(`${list}&createdAfter=${old}`))).toContain(eu.quoteId);
    for (const read of reads) expect((await sys.api(read)).status).toBe(200);
  },
);
