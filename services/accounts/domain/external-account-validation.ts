import { AppError } from '../../../lib/errors';
import { idPattern } from '../../../lib/ids';
import { BANK_ACCOUNT_TYPES, readPaymentRails, type AccountInfoReader } from './bank-account-info';
import { CURRENCY_CODES } from './currencies';
import { defined } from './customer-fields';
import { OWNERSHIP_TYPES, type ExternalAccountDraft } from './external-account';
import { FieldReader, isJsonObject } from './field-reader';
import { WALLET_INFO_TYPES } from './wallet-account-info';

const VARIANTS: Record<string, { currencies: string[]; read: AccountInfoReader }> = {
  ...Object.fromEntries(Object.entries(BANK_ACCOUNT_TYPES).map(([type, v]) => [type, { currencies: [v.currency], read: v.read }])),
  ...WALLET_INFO_TYPES,
};

/** The `accountInfo.accountType` values this service accepts. */
export const SUPPORTED_ACCOUNT_TYPES = Object.keys(VARIANTS);

const CUSTOMER_ID = new RegExp(idPattern('Customer'));

export type ExternalAccountOwner = 'CUSTOMER' | 'PLATFORM';

/**
 * An external account create request: the customer form (REST ExternalAccountCreateRequest; a
 * missing `customerId` means the platform's own account) or the platform form (no `customerId`,
 * no `defaultUmaDepositAccount`). Every invalid member is reported at once.
 */
export function validateExternalAccountCreate(body: unknown, owner: ExternalAccountOwner): ExternalAccountDraft {
  if (!isJsonObject(body)) throw AppError.invalidInput('Request body must be a JSON object');
  const r = new FieldReader();
  const byCustomer = owner === 'CUSTOMER';
  const customerId = byCustomer
    ? r.string(body, 'customerId', 'customerId', { pattern: CUSTOMER_ID })
    : undefined;
  const platformAccountId = r.string(body, 'platformAccountId', 'platformAccountId', { minLength: 1, maxLength: 255 });
  const ownershipType = r.enumValue(body, 'ownershipType', 'ownershipType', OWNERSHIP_TYPES);
  const defaultUmaDepositAccount = byCustomer ? r.boolean(body, 'defaultUmaDepositAccount', 'defaultUmaDepositAccount') : undefined;

  const info = r.object(body, 'accountInfo', 'accountInfo', true);
  const accountType = info ? r.enumValue(info, 'accountType', 'accountInfo.accountType', SUPPORTED_ACCOUNT_TYPES, true) : undefined;
  const variant = accountType ? VARIANTS[accountType] : undefined;
  const read = info && variant ? variant.read(r, info) : undefined;
  const paymentRails = info && accountType ? readPaymentRails(r, info, accountType) : undefined;
  const accountInfo = read && paymentRails ? { ...read, paymentRails } : read;
  const currency = r.enumValue(body, 'currency', 'currency', variant?.currencies ?? CURRENCY_CODES, true);

  r.throwIfInvalid('Invalid external account');
  return defined({
    customerId,
    currency: currency!,
    platformAccountId,
    ownershipType,
    defaultUmaDepositAccount: (customerId !== undefined && defaultUmaDepositAccount) || false,
    accountInfo: accountInfo!,
  });
}
