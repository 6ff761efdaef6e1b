import type { AccountTypeSpec } from '../../lib/contract/external-account-types';
import type { CurrencySpec } from '../../lib/currencies';

/**
 * The "add an account type or a currency" recipe (docs/contributing.md) as a check. A currency
 * (lib/currencies.ts) has receivable bounds, a sandbox rate, an account type that holds it (a fiat
 * currency with its default rail among that type's rails) and its code in docs/exchange-rates.md.
 * An account type (lib/contract/external-account-types.ts) holds currencies of the table, is
 * reached by rails of the vocabulary, names only its own members in its rules, carries each member
 * in a field of the proto message, has a valid example in the test fixtures and a row in
 * docs/external-accounts.md naming its currencies.
 */
export interface CurrencyTables {
  currencies: Readonly<Record<string, CurrencySpec>>;
  accountTypes: Readonly<Record<string, AccountTypeSpec>>;
  /** The payment rails of the vocabulary (lib/contract/payment-vocabulary.ts). */
  rails: readonly string[];
  /** The JSON names of the proto message that carries `accountInfo`. */
  infoFields: ReadonlySet<string>;
  /** The account types the test fixtures have a valid example of. */
  examples: ReadonlySet<string>;
  /** The currency codes docs/exchange-rates.md names. */
  documentedCurrencies: ReadonlySet<string>;
  /** The currencies of each account type's row in docs/external-accounts.md (see documentedAccountTypes). */
  documentedAccountTypes: ReadonlyMap<string, readonly string[]>;
  /** Currencies no account type holds, each with its reason. */
  unheld?: Readonly<Record<string, string>>;
}

export function currencyProblems(t: CurrencyTables): string[] {
  const types = Object.entries(t.accountTypes);
  return Object.entries(t.currencies).flatMap(([code, spec]) => {
    const problems: string[] = [];
    const { min, max } = spec.receivable ?? {};
    if (!(Number.isSafeInteger(min) && Number.isSafeInteger(max) && min > 0 && max > min)) {
      problems.push(`${code}: no receivable bounds 0 < min < max in whole smallest units`);
    }
    if (!(Number.isFinite(spec.sandboxUnitsPerUsd) && spec.sandboxUnitsPerUsd > 0)) {
      problems.push(`${code}: no sandbox rate (sandboxUnitsPerUsd > 0)`);
    }
    const holders = types.filter(([, type]) => type.currencies.includes(code));
    if (Object.hasOwn(t.unheld ?? {}, code)) {
      if (holders.length) problems.push(`${code}: listed as held by no account type, but ${holders[0][0]} holds it`);
    } else if (!holders.length) problems.push(`${code}: no account type holds it`);
    else if (!spec.crypto) {
      const ownRails = holders.filter(([, type]) => type.currencies[0] === code).flatMap(([, type]) => type.rails);
      if (!spec.defaultRail || !ownRails.includes(spec.defaultRail)) {
        problems.push(`${code}: its default rail (${spec.defaultRail ?? 'none'}) is no rail of its own account type`);
      }
    }
    if (!t.documentedCurrencies.has(code)) problems.push(`${code}: not named in docs/exchange-rates.md`);
    return problems;
  }).concat(types.flatMap(([name, type]) => accountTypeProblems(t, name, type)));
}

function accountTypeProblems(t: CurrencyTables, name: string, type: AccountTypeSpec): string[] {
  const problems: string[] = [];
  const members = new Set(Object.keys(type.members));
  for (const code of type.currencies.filter((c) => !Object.hasOwn(t.currencies, c))) {
    problems.push(`${name}: holds ${code}, which lib/currencies.ts lacks`);
  }
  for (const rail of type.rails.filter((r) => !t.rails.includes(r))) {
    problems.push(`${name}: rail ${rail} is not in PAYMENT_RAILS`);
  }
  for (const [rail, needed] of Object.entries(type.railMembers ?? {})) {
    if (!type.rails.includes(rail)) problems.push(`${name}: railMembers names ${rail}, not one of its rails`);
    for (const m of needed.filter((m) => !members.has(m))) problems.push(`${name}: ${rail} needs ${m}, no member`);
  }
  for (const m of [...(type.exactlyOneOf ?? []), ...(type.atLeastOneOf ?? [])].filter((m) => !members.has(m))) {
    problems.push(`${name}: its one-of rule names ${m}, no member`);
  }
  for (const m of [...members].filter((m) => !t.infoFields.has(m))) {
    problems.push(`${name}: member ${m} has no field in the accountInfo proto message`);
  }
  if (!t.examples.has(name)) problems.push(`${name}: no valid example in the test fixtures (ACCOUNT_INFO)`);
  const documented = t.documentedAccountTypes.get(name);
  if (!documented) problems.push(`${name}: no row in docs/external-accounts.md`);
  else if (documented.length && documented.join() !== type.currencies.join()) {
    problems.push(`${name}: docs/external-accounts.md gives ${documented.join(', ')}, the table ${type.currencies}`);
  }
  return problems;
}

/**
 * The currencies of each row `| \`TYPE\` | A, B | ...` of a markdown table; none for a row that
 * describes them in words (a SWIFT account's "any local-account currency").
 */
export function documentedAccountTypes(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const [, type, cell] of markdown.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|/gm)) {
    rows.set(type, /^[A-Z, ]+$/.test(cell.trim()) ? cell.split(',').map((c) => c.trim()) : []);
  }
  return rows;
}

/** Every upper-case code of 3 or 4 letters a text names. */
export const codesNamed = (markdown: string): Set<string> => new Set(markdown.match(/\b[A-Z]{3,4}\b/g) ?? []);
