import { MAX_AMOUNT } from './contract/amount-bounds';
import {
  EXTERNAL_ACCOUNT_TYPE_NAMES,
  EXTERNAL_ACCOUNT_TYPES,
  type AccountTypeSpec,
} from './contract/external-account-types';
import { CURRENCY_CODES, currencySpec } from './currencies';

const ACCOUNT_TYPES: AccountTypeSpec[] = EXTERNAL_ACCOUNT_TYPE_NAMES.map((name) => EXTERNAL_ACCOUNT_TYPES[name]);

describe.each(CURRENCY_CODES.map((code) => [code]))('%s', (code) => {
  const spec = currencySpec(code)!;

  it('is named by an upper-case code, with a name and whole minor units', () => {
    expect(code).toMatch(/^[A-Z]{3,4}$/);
    expect(spec.name.length).toBeGreaterThan(0);
    expect(Number.isInteger(spec.decimals) && spec.decimals >= 0 && spec.decimals <= 8).toBe(true);
  });

  it('has integer receivable bounds with 0 < min < max ≤ the largest amount', () => {
    const { min, max } = spec.receivable;
    expect([Number.isSafeInteger(min), Number.isSafeInteger(max)]).toEqual([true, true]);
    expect(min).toBeGreaterThan(0);
    expect(max).toBeGreaterThan(min);
    expect(max).toBeLessThanOrEqual(MAX_AMOUNT);
  });

  it('has a finite sandbox rate > 0', () => {
    expect(Number.isFinite(spec.sandboxUnitsPerUsd) && spec.sandboxUnitsPerUsd > 0).toBe(true);
  });

  it('pays out by default on a rail of an account type holding it; crypto has no default rail', () => {
    if (spec.crypto) return expect(spec.defaultRail).toBeUndefined();
    if (spec.defaultRail === undefined) return;
    const holding = ACCOUNT_TYPES.filter((type) => type.kind === 'BANK' && type.currencies[0] === code);
    expect(holding.flatMap((type) => type.rails)).toContain(spec.defaultRail);
  });
});

test('every currency an external account type holds is in the table', () => {
  const held = [...new Set(ACCOUNT_TYPES.flatMap((type) => type.currencies))];
  expect(held.filter((code) => !currencySpec(code))).toEqual([]);
});

test('a code outside the table is no currency', () => {
  expect(['XYZ', 'toString', '', 'usd'].map(currencySpec)).toEqual([undefined, undefined, undefined, undefined]);
});
