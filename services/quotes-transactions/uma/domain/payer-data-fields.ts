import type { CounterPartyDataOptions } from '@uma-sdk/core';
import {
  isCustomerInfoFieldName,
  type CustomerInfoFieldName,
  type PayerDataField,
} from '../../lookups/domain/payer-data-requirements';

/** The UMA payer-data keys and the counterparty field names of our interface. */
const FIELD_OF_KEY: Record<string, CustomerInfoFieldName> = {
  name: 'FULL_NAME',
  email: 'EMAIL',
  birthDate: 'BIRTH_DATE',
  nationality: 'NATIONALITY',
  countryOfResidence: 'COUNTRY_OF_RESIDENCE',
  phoneNumber: 'PHONE_NUMBER',
};

/** The UMA key of a field: the protocol's own name where it has one, else the field's name (a custom key). */
const KEY_OF_FIELD: Record<string, string> = {
  ...Object.fromEntries(Object.entries(FIELD_OF_KEY).map(([key, field]) => [field, key])),
  IDENTIFIER: 'identifier',
};

/** The field a payer-data key names: one of the protocol's, or one of our field names used as a custom key. */
const fieldOf = (key: string): CustomerInfoFieldName | undefined =>
  FIELD_OF_KEY[key] ?? (key !== 'IDENTIFIER' && isCustomerInfoFieldName(key) ? key : undefined);

/**
 * The payer data our lnurlp answer asks for: what compliance requires (the payer's identifier and
 * the travel-rule data; name and email offered) plus the receiving platform's own requirements.
 */
export function payerDataOptionsFor(platformFields: PayerDataField[]): CounterPartyDataOptions {
  const options: CounterPartyDataOptions = {
    identifier: { mandatory: true },
    compliance: { mandatory: true },
    name: { mandatory: false },
    email: { mandatory: false },
  };
  for (const field of platformFields) {
    const key = KEY_OF_FIELD[field.name] ?? field.name;
    options[key] = { mandatory: !!options[key]?.mandatory || field.mandatory };
  }
  return options;
}

/**
 * What the receiving VASP asks about the payer, in our field names (the identifier and compliance data are the
 * protocol's own).
 */
export function requiredPayerData(options: CounterPartyDataOptions | undefined): PayerDataField[] {
  return Object.entries(options ?? {}).flatMap(([key, option]) => {
    const name = fieldOf(key);
    return name ? [{ name, mandatory: !!option?.mandatory }] : [];
  });
}

/** The payer data to send: only the fields the receiver asked for, from what the platform gave (senderCustomerInfo). */
export function payerDataFor(
  options: CounterPartyDataOptions | undefined,
  info: Record<string, unknown> | undefined,
): Record<string, string> {
  const data: Record<string, string> = {};
  for (const key of Object.keys(options ?? {})) {
    const field = fieldOf(key);
    const value = field ? info?.[field] : undefined;
    if (typeof value === 'string' && value) data[key] = value;
  }
  return data;
}

/** The mandatory fields asked for that the platform did not give. */
export function missingPayerData(
  options: CounterPartyDataOptions | undefined,
  info: Record<string, unknown> | undefined,
): string[] {
  const given = payerDataFor(options, info);
  return Object.entries(options ?? {})
    .filter(([key, o]) => o?.mandatory && fieldOf(key) && !given[key])
    .map(([key]) => fieldOf(key)!);
}
