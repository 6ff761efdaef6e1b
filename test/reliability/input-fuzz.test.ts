import { request as httpRequest } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { accountQuote, externalAccount, fund, payingCustomer } from '../http/payments-fixtures';
import { externalAccountBody, INDIVIDUAL_CUSTOMER } from '../../services/accounts/test-fixtures/request-bodies';
import { apiUrl, checkResponse, ContractViolation } from '../contract/response-contract';
import { startTestSystem, type TestSystem } from '../system-harness';
import { createRandom, fuzzRequest, servedRoutes, type FuzzRequest } from './input-fuzz';

/**
 * Malformed and mutated requests against every route the gateway serves: none may answer 5xx,
 * every error comes in the envelope, the process stays up and its memory does not grow.
 * FUZZ_REQUESTS sets how many (3,000 in `npm test`; `npm run test:fuzz` sends 50,000), FUZZ_SEED
 * replays a run.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

jest.setTimeout(60 * 60_000);

let sys: TestSystem;
beforeAll(async () => {
  sys = await startTestSystem({
    env: {
      GATEWAY_AUTH_FAILURES_PER_TOKEN: '1000000',
      GATEWAY_AUTH_FAILURES_PER_ADDRESS: '1000000',
      GATEWAY_RATE_LIMIT_REQUESTS: '100000000',
    },
  });
});
afterAll(() => sys.stop());

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/**
 * node:http rather than fetch: a GET with a body and any header are sent as given. One connection
 * per request: a GET body goes without framing, so its bytes start the connection's next request,
 * and which request that breaks would depend on timing.
 */
function send(request: FuzzRequest): Promise<{ status: number; body: unknown; contentType: string | null }> {
  const auth = `Basic ${Buffer.from(`${sys.sandbox.tokenId}:${sys.sandbox.clientSecret}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${sys.baseUrl}${request.path}`, {
      method: request.method,
      headers: { authorization: auth, ...request.headers },
      timeout: 30_000,
      agent: false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({
          status: res.statusCode ?? 0,
          body: text === '' ? undefined : body,
          contentType: res.headers['content-type'] ?? null,
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', reject);
    req.end(request.body);
  });
}

function envelopeProblem(status: number, body: any): string | undefined {
  if (status >= 500) return `answered ${status}`;
  if (status < 400) return undefined;
  if (typeof body !== 'object' || body === null) return 'error without a JSON envelope';
  if (body.status !== status || typeof body.code !== 'string' || typeof body.message !== 'string') {
    return `error outside the envelope: ${JSON.stringify(body).slice(0, 200)}`;
  }
  return undefined;
}

/** What in the answer our OpenAPI document does not describe (status or body). */
function contractProblem(
  request: FuzzRequest,
  status: number,
  body: unknown,
  contentType: string | null,
): string | undefined {
  try {
    checkResponse({ method: request.method, url: apiUrl(request.path), status, body, contentType });
    return undefined;
  } catch (err) {
    return err instanceof ContractViolation
      ? err.message.split('\n').slice(0, 3).join(' ')
      : `response check failed: ${String(err)}`;
  }
}

test(
  `${REQUESTS} fuzzed requests across every served route: no 5xx, every `
    + `answer as our OpenAPI document describes it, no memory growth (seed ${SEED})`,
  async () => {
    const payer = await payingCustomer(sys);
    await fund(sys, payer.usdAccountId, 1_000_000);
    const payee = await externalAccount(sys, payer.customerId);
    const bank = await externalAccount(sys, payer.customerId, 'USD_ACCOUNT');
    const seeds: Record<string, Record<string, unknown>> = {
      'POST /customers': { ...INDIVIDUAL_CUSTOMER, platformCustomerId: 'fuzz' },
      'PATCH /customers/:customerId': { customerType: 'INDIVIDUAL', fullName: 'Fuzz' },
      'POST /customers/external-accounts': { ...externalAccountBody('MXN_ACCOUNT'), customerId: payer.customerId },
      'POST /platform/external-accounts': externalAccountBody('USD_ACCOUNT'),
      'POST /quotes': accountQuote(payer.usdAccountId, payee, 1000),
      'POST /transfer-out': {
        source: { accountId: payer.usdAccountId },
        destination: { accountId: bank },
        amount: 100,
      },
      'POST /transfer-in': { source: { accountId: bank }, destination: { accountId: payer.usdAccountId }, amount: 100 },
      'PATCH /config': {
        feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 10 }],
      },
      'POST /sandbox/internal-accounts/:accountId/fund': { amount: 100 },
      'POST /auth/credentials': { type: 'EMAIL_OTP', accountId: payer.usdAccountId },
      'POST /sandbox/uma/receive': {
        senderUmaAddress: '$sender@uma.example',
        receiverUmaAddress: '$receiver@uma.example',
        amount: 100,
        currency: 'USD',
      },
    };
    const routes = servedRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const random = createRandom(SEED);
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    const phase = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const route = routes[i % routes.length];
        const request = fuzzRequest(random, route, seeds);
        const { status, body, contentType } = await send(request);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const problem = envelopeProblem(status, body) ?? contractProblem(request, status, body, contentType);
        if (problem && problems.length < 20) {
          problems.push(`${request.method} ${request.path.slice(0, 200)}: ${problem}`);
        }
      }
    };

    await phase(Math.min(500, REQUESTS));
    const before = heapMb();
    await phase(REQUESTS - Math.min(500, REQUESTS));
    const after = heapMb();

    expect(problems).toEqual([]);
    expect((await fetch(`${sys.rootUrl}/healthz`)).status).toBe(200);
    expect((await sys.api('/customers?limit=1')).status).toBe(200);
    // What the requests created (customers, accounts) stays; what they sent must not: a few MB at most.
    expect(after - before).toBeLessThan(48);
    process.stdout.write(
      `fuzz: ${REQUESTS} requests over ${routes.length} routes (seed ${SEED}), statuses ${
        JSON.stringify(Object.fromEntries(statuses))
      }, heap ${before.toFixed(1)} → ${after.toFixed(1)} MB\n`,
    );
  },
);
