import type { ReceivingDestination } from './receiving-destination';

import { CUSTOMER_INFO_FIELD_NAMES, ON_CHAIN_WALLET_TYPES } from '../../../../lib/contract/payment-vocabulary';

export { CUSTOMER_INFO_FIELD_NAMES };

export type CustomerInfoFieldName = (typeof CUSTOMER_INFO_FIELD_NAMES)[number];

/** One datum about the payer that the receiving side asks for before the payment completes. */
export interface PayerDataField {
  name: CustomerInfoFieldName;
  mandatory: boolean;
}

const required = (...names: CustomerInfoFieldName[]) => names.map((name) => ({ name, mandatory: true }));
const optional = (...names: CustomerInfoFieldName[]) => names.map((name) => ({ name, mandatory: false }));

/** By destination type: what the rail carries about the originator. */
function byAccountType(accountType: string): PayerDataField[] {
  if (accountType === 'LIGHTNING') return optional('FULL_NAME');
  // Travel rule: the originator and the originating institution.
  if (ON_CHAIN_WALLET_TYPES.includes(accountType)) {
    return [
      ...required('FULL_NAME', 'FI_LEGAL_ENTITY_NAME'),
      ...optional('FI_ADDRESS', 'ULTIMATE_INSTITUTION_COUNTRY'),
    ];
  }
  if (accountType === 'SWIFT_ACCOUNT') return required('FULL_NAME', 'POSTAL_ADDRESS', 'PURPOSE_OF_PAYMENT');
  if (accountType === 'EUR_ACCOUNT') return required('FULL_NAME', 'POSTAL_ADDRESS');
  return required('FULL_NAME');
}

/** By the receiving bank's country: local rules on top of the rail's. */
const BY_COUNTRY: Readonly<Record<string, PayerDataField[]>> = {
  US: required('POSTAL_ADDRESS'),
  MX: [...required('BIRTH_DATE'), ...optional('NATIONALITY')],
  BR: required('TAX_ID', 'BIRTH_DATE'),
  IN: required('POSTAL_ADDRESS', 'PURPOSE_OF_PAYMENT'),
  GB: required('POSTAL_ADDRESS'),
  CA: [...required('POSTAL_ADDRESS'), ...optional('BIRTH_DATE')],
};

/**
 * Merges requirements from several sources: a field asked for twice is listed once, and is
 * mandatory if any source makes it so. The result follows the interface's field order.
 */
export function mergePayerDataFields(...sources: PayerDataField[][]): PayerDataField[] {
  const merged = new Map<CustomerInfoFieldName, boolean>();
  for (const field of sources.flat()) merged.set(field.name, (merged.get(field.name) ?? false) || field.mandatory);
  return CUSTOMER_INFO_FIELD_NAMES.filter((name) => merged.has(name)).map((name) => ({
    name,
    mandatory: merged.get(name)!,
  }));
}

export function requiredPayerDataFields(
  destination: Pick<ReceivingDestination, 'accountType' | 'country'>,
): PayerDataField[] {
  const local = destination.country ? BY_COUNTRY[destination.country] ?? [] : [];
  return mergePayerDataFields(byAccountType(destination.accountType), local);
}

export function isCustomerInfoFieldName(value: string): value is CustomerInfoFieldName {
  return (CUSTOMER_INFO_FIELD_NAMES as readonly string[]).includes(value);
}
