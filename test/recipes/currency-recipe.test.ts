import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTERNAL_ACCOUNT_TYPES, type AccountTypeSpec } from '../../lib/contract/external-account-types';
import { PAYMENT_RAILS } from '../../lib/contract/payment-vocabulary';
import { CURRENCY_TABLE, type CurrencySpec } from '../../lib/currencies';
import { ACCOUNT_INFO } from '../../services/accounts/test-fixtures/request-bodies';
import { codesNamed, currencyProblems, documentedAccountTypes, type CurrencyTables } from './currency-recipe';
import { protoRegistry } from './member-recipe';

const doc = (name: string) => readFileSync(join(__dirname, '..', '..', 'docs', name), 'utf8');
/** A document's section, from its heading to the next one of its level. */
const section = (markdown: string, heading: string) => markdown.split(`\n## ${heading}\n`)[1].split('\n## ')[0];

/** Currencies no account type holds, each with its reason. */
const UNHELD = { ARS: "the reference's ARS_ACCOUNT is not in lib/contract/external-account-types.ts" };

describe('the "add an account type or a currency" recipe', () => {
  const info = protoRegistry().getMessage('accounts.v1.ExternalAccountInfo')!;
  const real: CurrencyTables = {
    currencies: CURRENCY_TABLE,
    accountTypes: EXTERNAL_ACCOUNT_TYPES,
    rails: PAYMENT_RAILS,
    infoFields: new Set(info.fields.map((f) => f.jsonName)),
    examples: new Set(Object.keys(ACCOUNT_INFO)),
    documentedCurrencies: codesNamed(section(doc('exchange-rates.md'), 'Currencies')),
    documentedAccountTypes: documentedAccountTypes(doc('external-accounts.md')),
    unheld: UNHELD,
  };

  it('holds for every currency and every account type of the tables', () => {
    expect(currencyProblems(real)).toEqual([]);
  });

  it('names each missing step of a currency added to the table alone', () => {
    const { USD: _usd, ...others } = CURRENCY_TABLE;
    const kzt = { name: 'Tenge', symbol: '₸', decimals: 2, defaultRail: 'BANK_TRANSFER' } as CurrencySpec;
    expect(currencyProblems({ ...real, currencies: { ...others, KZT: kzt } })).toEqual([
      'KZT: no receivable bounds 0 < min < max in whole smallest units',
      'KZT: no sandbox rate (sandboxUnitsPerUsd > 0)',
      'KZT: no account type holds it',
      'KZT: not named in docs/exchange-rates.md',
      'SLV_ACCOUNT: holds USD, which lib/currencies.ts lacks',
      'USD_ACCOUNT: holds USD, which lib/currencies.ts lacks',
      'SWIFT_ACCOUNT: holds USD, which lib/currencies.ts lacks',
    ]);
  });

  it("names a default rail that is no rail of the currency's own account type", () => {
    const currencies = { ...CURRENCY_TABLE, MXN: { ...CURRENCY_TABLE.MXN, defaultRail: 'PIX' } };
    expect(currencyProblems({ ...real, currencies })).toEqual([
      'MXN: its default rail (PIX) is no rail of its own account type',
    ]);
  });

  it('names each missing step of an account type added to the table alone', () => {
    const kzt: AccountTypeSpec = {
      kind: 'BANK',
      currencies: ['KZT'],
      rails: ['BANK_TRANSFER', 'KASPI'],
      members: { iban: { required: true }, kaspiPhone: {} },
      railMembers: { KASPI: ['kaspiPhone'], SWIFT: ['swiftCode'] },
    };
    expect(currencyProblems({ ...real, accountTypes: { ...EXTERNAL_ACCOUNT_TYPES, KZT_ACCOUNT: kzt } })).toEqual([
      'KZT_ACCOUNT: holds KZT, which lib/currencies.ts lacks',
      'KZT_ACCOUNT: rail KASPI is not in PAYMENT_RAILS',
      'KZT_ACCOUNT: railMembers names SWIFT, not one of its rails',
      'KZT_ACCOUNT: SWIFT needs swiftCode, no member',
      'KZT_ACCOUNT: member kaspiPhone has no field in the accountInfo proto message',
      'KZT_ACCOUNT: no valid example in the test fixtures (ACCOUNT_INFO)',
      'KZT_ACCOUNT: no row in docs/external-accounts.md',
    ]);
  });

  it('reads the currencies of each account type row', () => {
    const table =
      '| accountType | currency |\n|---|---|\n| `USD_ACCOUNT` | USD | a |\n| `BASE_WALLET` | USDC, USDT | b |';
    expect([...documentedAccountTypes(table)]).toEqual([['USD_ACCOUNT', ['USD']], ['BASE_WALLET', ['USDC', 'USDT']]]);
  });
});
