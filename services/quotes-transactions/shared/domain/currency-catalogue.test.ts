import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { createSandboxRateSource } from '../../rates/adapters/rate-source';
import { CURRENCY_CODES, findCurrency } from './currency-catalogue';
import { receivableBounds } from './receivable-bounds';
import { REFERENCE_OPENAPI } from '../../../../test/shared-reference.cjs';

const reference = parse(readFileSync(REFERENCE_OPENAPI, 'utf8'));

/** The currency each of the reference's local account types pays out in (SLV: El Salvador pays in US dollars). */
const accountCurrencies: string[] = (reference.components.schemas.ExternalAccountType.enum as string[])
  .filter((type) => type.endsWith('_ACCOUNT') && type !== 'SWIFT_ACCOUNT')
  .map((type) => (type === 'SLV_ACCOUNT' ? 'USD' : type.slice(0, 3)));
/** Every `XXX_ACCOUNT` the reference names anywhere (payment instructions name ARS too). */
const namedCurrencies = [
  ...new Set([...readFileSync(REFERENCE_OPENAPI, 'utf8').matchAll(/\b([A-Z]{3})_ACCOUNT\b/g)].map((m) => m[1])),
]
  .filter((code) => code !== 'SLV');
const walletCurrencies = ['USDC', 'USDT', 'BTC'];

test("the reference has 37 local account types; each one's currency, and each named, is in the catalogue", () => {
  expect(accountCurrencies).toHaveLength(37);
  const missing = [...accountCurrencies, ...namedCurrencies, ...walletCurrencies].filter((code) => !findCurrency(code));
  expect(missing).toEqual([]);
});

test('every catalogue currency has sandbox rates to every other and bounds a payment to it must keep', async () => {
  const rates = createSandboxRateSource();
  for (const code of CURRENCY_CODES) {
    const bounds = receivableBounds(code)!;
    expect(bounds.min).toBeGreaterThan(0);
    expect(bounds.max).toBeGreaterThan(bounds.min);
    for (const other of CURRENCY_CODES) expect(await rates.rate(code, other)).toBeGreaterThan(0);
  }
});

test("minor units are ISO 4217's: zero-decimal currencies count whole units", () => {
  expect(['RWF', 'UGX', 'VND', 'XAF', 'XOF'].map((code) => findCurrency(code)!.decimals)).toEqual([0, 0, 0, 0, 0]);
  expect(findCurrency('KES')!.decimals).toBe(2);
});
