import { AppError } from '../../../../lib/errors';
import { MalformedRatesDocument, parseEuroReferenceRates, type EuroReferenceRates } from './eurofxref-document';
import type { RateSource } from './rate-source';

export const ECB_DAILY_RATES_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

export interface EcbRateSourceOptions {
  /** Where the eurofxref-daily.xml document is fetched from. */
  url: string;
  /** How long a fetched document is used before it is fetched again. */
  refreshMs: number;
  /** Rates whose reference date began longer ago than this are refused. */
  maxAgeMs: number;
  /** How long one fetch may take. */
  timeoutMs: number;
  clock: () => Date;
  fetch?: typeof fetch;
}

/** After a failed fetch, the next attempt waits this long (at most the refresh interval). */
const RETRY_AFTER_FAILURE_MS = 30_000;
/** The daily document is about 2 KB; anything far larger is not it. */
const MAX_DOCUMENT_BYTES = 256 * 1024;
const SIGNIFICANT_DIGITS = 10;

/**
 * Currencies the ECB does not publish whose value is fixed to one it does: the CFA francs by
 * treaty (655.957 per euro), the UAE dirham by its central bank (3.6725 per dollar), and the
 * dollar stablecoins by their issuers (1 per dollar, as the embedded table counts them).
 */
export const PEGS: Readonly<Record<string, { anchor: string; units: number }>> = {
  XOF: { anchor: 'EUR', units: 655.957 },
  XAF: { anchor: 'EUR', units: 655.957 },
  AED: { anchor: 'USD', units: 3.6725 },
  USDC: { anchor: 'USD', units: 1 },
  USDT: { anchor: 'USD', units: 1 },
};

const unavailable = (
  reason: 'UNREACHABLE' | 'MALFORMED' | 'STALE',
  message: string,
  extra: Record<string, unknown> = {},
  cause?: unknown,
) =>
  new AppError('UNAVAILABLE', `Exchange rates are unavailable: ${message}`, { rateSource: 'ECB', reason, ...extra }, {
    cause,
  });

/**
 * Rates from the ECB's daily euro reference rates, crossed through the euro. The document is
 * fetched at most once per refresh interval (one fetch at a time however many quotes ask); a
 * failed refresh keeps the last document while it is fresh enough. Rates older than the maximum
 * age, or none at all, are refused with 503 UNAVAILABLE: a quote is never priced on a guess.
 */
export function createEcbRateSource(options: EcbRateSourceOptions): RateSource {
  const fetchDocument = options.fetch ?? fetch;
  let current: EuroReferenceRates | undefined;
  let lastFailure: AppError | undefined;
  let nextAttemptAt = 0;
  let inflight: Promise<void> | undefined;

  async function download(): Promise<EuroReferenceRates> {
    let text: string;
    try {
      const response = await fetchDocument(options.url, {
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: { accept: 'application/xml, text/xml' },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      text = await response.text();
    } catch (err) {
      throw unavailable('UNREACHABLE', 'the ECB reference rates could not be fetched', {}, err);
    }
    if (Buffer.byteLength(text) > MAX_DOCUMENT_BYTES) {
      throw unavailable('MALFORMED', 'the ECB reference rates document is not the daily document');
    }
    try {
      return parseEuroReferenceRates(text);
    } catch (err) {
      if (err instanceof MalformedRatesDocument) {
        throw unavailable(
          'MALFORMED',
          'the ECB reference rates document could not be read',
          { problem: err.message },
          err,
        );
      }
      throw err;
    }
  }

  async function refresh(): Promise<void> {
    try {
      current = await download();
      lastFailure = undefined;
      nextAttemptAt = options.clock().getTime() + options.refreshMs;
    } catch (err) {
      lastFailure = err instanceof AppError
        ? err
        : unavailable('UNREACHABLE', 'the ECB reference rates could not be fetched', {}, err);
      nextAttemptAt = options.clock().getTime() + Math.min(options.refreshMs, RETRY_AFTER_FAILURE_MS);
    }
  }

  async function usableRates(): Promise<EuroReferenceRates> {
    if (options.clock().getTime() >= nextAttemptAt) {
      inflight ??= refresh().finally(() => {
        inflight = undefined;
      });
      await inflight;
    } else if (inflight) {
      await inflight;
    }
    if (!current) throw lastFailure ?? unavailable('UNREACHABLE', 'the ECB reference rates have not been fetched');
    const ageMs = options.clock().getTime() - Date.parse(`${current.publishedOn}T00:00:00Z`);
    if (ageMs > options.maxAgeMs) {
      throw unavailable('STALE', `the newest ECB reference rates are of ${current.publishedOn}, older than allowed`, {
        publishedOn: current.publishedOn,
        maxAgeMs: options.maxAgeMs,
      });
    }
    return current;
  }

  function unitsPerEuro(rates: EuroReferenceRates, code: string): number {
    const published = rates.perEuro.get(code);
    if (published !== undefined) return published;
    const peg = PEGS[code];
    const anchor = peg && rates.perEuro.get(peg.anchor);
    if (peg && anchor !== undefined) return anchor * peg.units;
    throw new AppError(
      'INVALID_CURRENCY',
      `The configured rate source (ECB reference rates) publishes no rate for ${code}`,
      { rateSource: 'ECB', currency: code },
    );
  }

  return {
    async rate(from, to) {
      const rates = await usableRates();
      const [perEuroFrom, perEuroTo] = [unitsPerEuro(rates, from), unitsPerEuro(rates, to)];
      if (from === to) return 1;
      return Number((perEuroTo / perEuroFrom).toPrecision(SIGNIFICANT_DIGITS));
    },
  };
}
