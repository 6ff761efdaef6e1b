/** What the lookup needs to know about an external account, read off its REST accountInfo. */
export interface ReceivingDestination {
  accountId: string;
  /** The accountInfo discriminator, e.g. MXN_ACCOUNT, SWIFT_ACCOUNT, SPARK_WALLET. */
  accountType: string;
  /** ISO 3166-1 alpha-2 country of the receiving bank; absent for wallets. */
  country?: string;
  /** The account's own currency. */
  currency: string;
  /** Individual fullName or business legalName of the beneficiary, when the account has one. */
  beneficiaryName?: string;
}

export interface ExternalAccountData {
  id: string;
  currency: string;
  accountInfo: Record<string, unknown>;
}

const COUNTRY = /^[A-Z]{2}$/;
// Account types whose currency code does not start with the bank's country code.
const NON_NATIONAL = new Set(['EUR', 'XAF', 'XOF', 'SLV']);

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function countryOf(accountType: string, info: Record<string, unknown>): string | undefined {
  const beneficiary = record(info.beneficiary);
  const candidates: Array<string | undefined> = [];
  if (accountType === 'SWIFT_ACCOUNT') candidates.push(text(info.country));
  if (accountType === 'EUR_ACCOUNT') candidates.push(text(info.iban)?.slice(0, 2));
  if (accountType === 'SLV_ACCOUNT') candidates.push('SV');
  const national = /^([A-Z]{3})_ACCOUNT$/.exec(accountType)?.[1];
  // ISO 4217 codes of national currencies begin with the ISO 3166 code of their country.
  if (national && !NON_NATIONAL.has(national)) candidates.push(national.slice(0, 2));
  if (national) candidates.push(text(record(beneficiary.address).country), text(beneficiary.countryOfResidence));
  return candidates.find((c): c is string => c !== undefined && COUNTRY.test(c));
}

export function describeDestination(account: ExternalAccountData): ReceivingDestination {
  const info = account.accountInfo;
  const accountType = text(info.accountType) ?? 'UNKNOWN';
  const beneficiary = record(info.beneficiary);
  const destination: ReceivingDestination = { accountId: account.id, accountType, currency: account.currency };
  const country = countryOf(accountType, info);
  if (country) destination.country = country;
  const beneficiaryName = text(beneficiary.fullName) ?? text(beneficiary.legalName);
  if (beneficiaryName) destination.beneficiaryName = beneficiaryName;
  return destination;
}
