import { appErrorOf } from '../../test-fixtures/app-error-of';
import { ecbDocumentOf, startFakeRatesServer, type FakeRatesServer } from '../test-fixtures/fake-rates-server';
import { createEcbRateSource } from './ecb-rate-source';

const HOUR = 3_600_000;
const PUBLISHED = Date.parse('2026-11-25T00:00:00Z');

let server: FakeRatesServer;
beforeAll(async () => {
  server = await startFakeRatesServer();
});
afterAll(async () => {
  await server.close();
});

/** A source on the fake with its own clock, 15:00 UTC on the reference date to start. */
function source(options: { refreshMs?: number; maxAgeMs?: number; timeoutMs?: number; url?: string } = {}) {
  let now = PUBLISHED + 15 * HOUR;
  const rates = createEcbRateSource({
    url: options.url ?? server.url,
    refreshMs: options.refreshMs ?? HOUR,
    maxAgeMs: options.maxAgeMs ?? 6 * 24 * HOUR,
    timeoutMs: options.timeoutMs ?? 2_000,
    clock: () => new Date(now),
  });
  return {
    rates,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

beforeEach(() => {
  server.answer = { status: 200, body: ecbDocumentOf('2026-11-25') };
  server.requests = 0;
});

describe('fresh rates', () => {
  test.each([
    ['EUR', 'USD', 1.1568],
    ['USD', 'EUR', Number((1 / 1.1568).toPrecision(10))],
    ['EUR', 'MXN', 21.3071],
    ['USD', 'MXN', Number((21.3071 / 1.1568).toPrecision(10))],
    ['GBP', 'INR', Number((103.36 / 0.8797).toPrecision(10))],
    ['CAD', 'CAD', 1],
    // Pegs the ECB does not publish: the CFA francs to the euro, the dirham and the stablecoins to the dollar.
    ['EUR', 'XOF', 655.957],
    ['USD', 'XAF', Number((655.957 / 1.1568).toPrecision(10))],
    ['USD', 'AED', 3.6725],
    ['USDC', 'EUR', Number((1 / 1.1568).toPrecision(10))],
  ])('%s→%s is the published rate crossed through the euro: %d', async (from, to, expected) => {
    await expect(source().rates.rate(from, to)).resolves.toBe(expected);
  });

  test('a currency the ECB does not publish is INVALID_CURRENCY, naming the source', async () => {
    const err = await appErrorOf(source().rates.rate('USD', 'KES'));
    expect(err.code).toBe('INVALID_CURRENCY');
    expect(err.details).toEqual({ rateSource: 'ECB', currency: 'KES' });
  });
});

describe('caching', () => {
  test('concurrent and repeated asks within the refresh interval fetch the document once', async () => {
    const { rates, advance } = source({ refreshMs: HOUR });
    await Promise.all(Array.from({ length: 20 }, () => rates.rate('USD', 'MXN')));
    advance(HOUR - 1);
    await rates.rate('EUR', 'GBP');
    expect(server.requests).toBe(1);
  });

  test('after the interval the document is fetched again and its new rates are used', async () => {
    const { rates, advance } = source({ refreshMs: HOUR });
    await expect(rates.rate('EUR', 'USD')).resolves.toBe(1.1568);
    server.answer = { status: 200, body: ecbDocumentOf('2026-11-26').replace("rate='1.1568'", "rate='1.1600'") };
    advance(HOUR);
    await expect(rates.rate('EUR', 'USD')).resolves.toBe(1.16);
    expect(server.requests).toBe(2);
  });

  test('a failed refresh keeps the last document while it is within the maximum age', async () => {
    const { rates, advance } = source({ refreshMs: HOUR });
    await rates.rate('EUR', 'USD');
    server.answer = { status: 503, body: 'maintenance' };
    advance(HOUR);
    await expect(rates.rate('EUR', 'USD')).resolves.toBe(1.1568);
    expect(server.requests).toBe(2);
  });
});

describe('stale rates', () => {
  test('a document whose reference date began longer ago than the maximum age is refused: 503, STALE', async () => {
    server.answer = { status: 200, body: ecbDocumentOf('2026-11-18') };
    const err = await appErrorOf(source({ maxAgeMs: 6 * 24 * HOUR }).rates.rate('USD', 'EUR'));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.message).toMatch(/2026-11-18/);
    expect(err.details).toEqual({
      rateSource: 'ECB',
      reason: 'STALE',
      publishedOn: '2026-11-18',
      maxAgeMs: 6 * 24 * HOUR,
    });
  });

  test('cached rates that age past the maximum are refused, and a newer document is used again', async () => {
    const { rates, advance } = source({ refreshMs: 24 * HOUR, maxAgeMs: 2 * 24 * HOUR });
    await rates.rate('USD', 'EUR');
    server.answer = { status: 500, body: '' };
    advance(2 * 24 * HOUR);
    expect((await appErrorOf(rates.rate('USD', 'EUR'))).details).toMatchObject({
      reason: 'STALE',
      publishedOn: '2026-11-25',
    });
    server.answer = { status: 200, body: ecbDocumentOf('2026-11-27') };
    advance(24 * HOUR);
    await expect(rates.rate('EUR', 'USD')).resolves.toBe(1.1568);
  });
});

describe('an unreachable source', () => {
  test('nothing listening: 503 UNAVAILABLE, UNREACHABLE', async () => {
    const closed = await startFakeRatesServer();
    await closed.close();
    const err = await appErrorOf(source({ url: closed.url }).rates.rate('USD', 'EUR'));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.details).toEqual({ rateSource: 'ECB', reason: 'UNREACHABLE' });
  });

  test('an HTTP error answer: UNAVAILABLE; retried after a pause rather than on every quote', async () => {
    server.answer = { status: 500, body: 'oops' };
    const { rates, advance } = source({ refreshMs: HOUR });
    expect((await appErrorOf(rates.rate('USD', 'EUR'))).details).toMatchObject({ reason: 'UNREACHABLE' });
    expect((await appErrorOf(rates.rate('USD', 'EUR'))).details).toMatchObject({ reason: 'UNREACHABLE' });
    expect(server.requests).toBe(1);
    server.answer = { status: 200, body: ecbDocumentOf('2026-11-25') };
    advance(30_000);
    await expect(rates.rate('EUR', 'USD')).resolves.toBe(1.1568);
    expect(server.requests).toBe(2);
  });

  test('an answer that never comes: UNAVAILABLE once the fetch timeout passes', async () => {
    server.answer = 'hang';
    const err = await appErrorOf(source({ timeoutMs: 200 }).rates.rate('USD', 'EUR'));
    expect(err.details).toMatchObject({ reason: 'UNREACHABLE' });
  });
});

describe('a malformed document', () => {
  test.each([
    ['an HTML page', '<html><body>Service temporarily unavailable</body></html>'],
    ['a rate that is not a number', ecbDocumentOf('2026-11-25').replace("rate='1.1568'", "rate='n/a'")],
    ['no reference date', ecbDocumentOf('2026-11-25').replace("<Cube time='2026-11-25'>", '<Cube>')],
    ['an impossible date', ecbDocumentOf('2026-11-31')],
  ])('%s: 503 UNAVAILABLE, MALFORMED', async (_what, body) => {
    server.answer = { status: 200, body };
    const err = await appErrorOf(source().rates.rate('USD', 'EUR'));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.details).toMatchObject({ rateSource: 'ECB', reason: 'MALFORMED' });
  });
});
