import { RECORDED_ECB_DOCUMENT } from '../test-fixtures/fake-rates-server';
import { MalformedRatesDocument, parseEuroReferenceRates } from './eurofxref-document';

test('the recorded document: its reference date, the euro at 1 and every published currency', () => {
  const rates = parseEuroReferenceRates(RECORDED_ECB_DOCUMENT);
  expect(rates.publishedOn).toBe('2026-11-25');
  expect(rates.perEuro.size).toBe(30);
  expect(rates.perEuro.get('EUR')).toBe(1);
  expect(rates.perEuro.get('USD')).toBe(1.1568);
  expect(rates.perEuro.get('IDR')).toBe(19283.07);
  expect(rates.perEuro.get('GBP')).toBe(0.8797);
});

test('double-quoted attributes and any layout read the same', () => {
  const compact = '<gesmes:Envelope><Cube><Cube time="2026-11-25"><Cube currency="USD" rate="1.1568" '
    + '/><Cube rate="21.3071" currency="MXN"/></Cube></Cube></gesmes:Envelope>';
  expect(parseEuroReferenceRates(compact)).toEqual({
    publishedOn: '2026-11-25',
    perEuro: new Map([['EUR', 1], ['USD', 1.1568], ['MXN', 21.3071]]),
  });
});

const envelope = (cubes: string) => `<gesmes:Envelope><Cube>${cubes}</Cube></gesmes:Envelope>`;

test.each([
  ['not the ECB envelope', '<Cube time="2026-11-25"><Cube currency="USD" rate="1.1"/></Cube>', /no gesmes:Envelope/],
  ['no rates', envelope('<Cube time="2026-11-25"></Cube>'), /no rates/],
  ['no date', envelope('<Cube><Cube currency="USD" rate="1.1"/></Cube>'), /no reference date/],
  [
    'two dates (the 90-day history, not the daily document)',
    envelope(
      '<Cube time="2026-11-25"><Cube currency="USD" rate="1.1"/></Cube><Cube '
        + 'time="2026-11-24"><Cube currency="USD" rate="1.2"/></Cube>',
    ),
    /more than one reference date/,
  ],
  [
    'a negative rate',
    envelope('<Cube time="2026-11-25"><Cube currency="USD" rate="-1.1"/></Cube>'),
    /not a positive decimal/,
  ],
  [
    'a zero rate',
    envelope('<Cube time="2026-11-25"><Cube currency="USD" rate="0.0000"/></Cube>'),
    /not a positive decimal/,
  ],
  ['a rate without currency', envelope('<Cube time="2026-11-25"><Cube rate="1.1"/></Cube>'), /not an ISO 4217 code/],
  [
    'a lowercase code',
    envelope('<Cube time="2026-11-25"><Cube currency="usd" rate="1.1"/></Cube>'),
    /not an ISO 4217 code/,
  ],
  [
    'a currency twice',
    envelope('<Cube time="2026-11-25"><Cube currency="USD" rate="1.1"/><Cube currency="USD" rate="1.2"/></Cube>'),
    /listed twice/,
  ],
  [
    'a date that is no date',
    envelope('<Cube time="yesterday"><Cube currency="USD" rate="1.1"/></Cube>'),
    /is not a date/,
  ],
])('refused: %s', (_what, xml, problem) => {
  expect(() => parseEuroReferenceRates(xml)).toThrow(MalformedRatesDocument);
  expect(() => parseEuroReferenceRates(xml)).toThrow(problem);
});
