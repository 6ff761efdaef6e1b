import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENCY_TABLE, type CurrencySpec } from '../../lib/currencies';
import { PEGS } from '../../services/quotes-transactions/rates/adapters/ecb-rate-source';
import { parseEuroReferenceRates } from '../../services/quotes-transactions/rates/adapters/eurofxref-document';

/**
 * docs/exchange-rates.md's currency lists, from the currency table and the recorded ECB document
 * (`rates/test-fixtures/eurofxref-daily.xml`): a currency added to the table is listed by
 * `UPDATE_DOCS=1`, under the ECB heading where it falls.
 */
const RECORDED_ECB = join(
  __dirname,
  '..',
  '..',
  'services',
  'quotes-transactions',
  'rates',
  'test-fixtures',
  'eurofxref-daily.xml',
);

const entries = Object.entries(CURRENCY_TABLE as Record<string, CurrencySpec>);
const codes = (keep: (code: string, spec: CurrencySpec) => boolean) =>
  entries.filter(([code, spec]) => keep(code, spec)).map(([code]) => code).sort();

/** Words wrapped at 100 characters, as the surrounding prose is: a block of its own. */
const wrapped = (words: string[]) =>
  `${
    words.reduce<string[]>((lines, word) => {
      const last = lines.length - 1;
      if (last >= 0 && lines[last].length + 1 + word.length <= 100) lines[last] += ` ${word}`;
      else lines.push(word);
      return lines;
    }, []).join('\n')
  }\n`;

export function currencySections(): Record<string, string> {
  const published = new Set(['EUR', ...parseEuroReferenceRates(readFileSync(RECORDED_ECB, 'utf8')).perEuro.keys()]);
  const fiat = codes((_, spec) => !spec.crypto);
  return {
    'fiat-currencies': wrapped(fiat),
    'wallet-currencies': codes((_, spec) => !!spec.crypto).join(' '),
    'ecb-published': wrapped(codes((code) => published.has(code))),
    'ecb-pegged': `${
      codes((code) => !published.has(code) && code in PEGS)
        .map((code) => `${code} (${PEGS[code].units} per ${PEGS[code].anchor})`)
        .join(', ')
    }\n`,
    'ecb-unavailable': wrapped(codes((code) => !published.has(code) && !(code in PEGS))),
  };
}
