/**
 * The ECB's daily euro foreign exchange reference rates (eurofxref-daily.xml): one
 * `<Cube time='YYYY-MM-DD'>` holding `<Cube currency='XXX' rate='d.dddd'/>` rows, each the units
 * of the currency per euro. The format has been fixed since 1999, so it is read by its elements
 * rather than by a general XML parser; anything else in the document is ignored, and a document
 * without a date or a rate, or with a row that is not a code and a positive decimal, is refused.
 */
export interface EuroReferenceRates {
  /** The reference date the ECB published the rates for. */
  publishedOn: string;
  /** Units of each currency per euro (the euro itself included, at 1). */
  perEuro: ReadonlyMap<string, number>;
}

export class MalformedRatesDocument extends Error {
  constructor(problem: string) {
    super(`malformed eurofxref document: ${problem}`);
    this.name = 'MalformedRatesDocument';
  }
}

const CUBE_TAG = /<Cube\b([^>]*?)\/?>/g;
const ATTRIBUTE = /([A-Za-z_][\w.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/g;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CODE = /^[A-Z]{3}$/;
const DECIMAL = /^\d+(\.\d+)?$/;

function attributesOf(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(ATTRIBUTE)) out.set(m[1], m[2] ?? m[3]);
  return out;
}

function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export function parseEuroReferenceRates(xml: string): EuroReferenceRates {
  if (!/<gesmes:Envelope\b/.test(xml)) throw new MalformedRatesDocument('no gesmes:Envelope');
  let publishedOn: string | undefined;
  const perEuro = new Map<string, number>([['EUR', 1]]);
  for (const [, source] of xml.matchAll(CUBE_TAG)) {
    const attributes = attributesOf(source);
    const time = attributes.get('time');
    if (time !== undefined) {
      if (publishedOn !== undefined) {
        throw new MalformedRatesDocument('more than one reference date (not the daily document)');
      }
      if (!isCalendarDate(time)) throw new MalformedRatesDocument(`time "${time}" is not a date`);
      publishedOn = time;
    }
    const currency = attributes.get('currency');
    const rate = attributes.get('rate');
    if (currency === undefined && rate === undefined) continue;
    if (currency === undefined || !CODE.test(currency)) {
      throw new MalformedRatesDocument(`currency "${currency ?? ''}" is not an ISO 4217 code`);
    }
    if (rate === undefined || !DECIMAL.test(rate) || !(Number(rate) > 0)) {
      throw new MalformedRatesDocument(`rate "${rate ?? ''}" of ${currency} is not a positive decimal`);
    }
    if (perEuro.has(currency)) throw new MalformedRatesDocument(`${currency} is listed twice`);
    perEuro.set(currency, Number(rate));
  }
  if (publishedOn === undefined) throw new MalformedRatesDocument('no reference date');
  if (perEuro.size === 1) throw new MalformedRatesDocument('no rates');
  return { publishedOn, perEuro };
}
