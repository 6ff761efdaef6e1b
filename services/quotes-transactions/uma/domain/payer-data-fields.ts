import type { CounterPartyDataOptions } from '@uma-sdk/core';
import type { CustomerInfoFieldName, PayerDataField } from '../../domain/payer-data-requirements';

/** The UMA payer-data keys and the counterparty field names of our interface. */
const FIELD_OF_KEY: Record<string, CustomerInfoFieldName> = {
  name: 'FULL_NAME', email: 'EMAIL', birthDate: 'BIRTH_DATE', nationality: 'NATIONALITY',
  countryOfResidence: 'COUNTRY_OF_RESIDENCE', phoneNumber: 'PHONE_NUMBER',
};

/** What the receiving VASP asks about the payer, in our field names (the identifier and compliance data are the protocol's own). */
export function requiredPayerData(options: CounterPartyDataOptions | undefined): PayerDataField[] {
  return Object.entries(options ?? {}).flatMap(([key, option]) => {
    const name = FIELD_OF_KEY[key];
    return name ? [{ name, mandatory: !!option?.mandatory }] : [];
  });
}

/** The payer data to send: only the fields the receiver asked for, from what the platform gave (senderCustomerInfo). */
export function payerDataFor(options: CounterPartyDataOptions | undefined, info: Record<string, unknown> | undefined): Record<string, string> {
  const data: Record<string, string> = {};
  for (const key of Object.keys(options ?? {})) {
    const value = FIELD_OF_KEY[key] ? info?.[FIELD_OF_KEY[key]] : undefined;
    if (typeof value === 'string' && value) data[key] = value;
  }
  return data;
}

/** The mandatory fields asked for that the platform did not give. */
export function missingPayerData(options: CounterPartyDataOptions | undefined, info: Record<string, unknown> | undefined): string[] {
  const given = payerDataFor(options, info);
  return Object.entries(options ?? {}).filter(([key, o]) => o?.mandatory && FIELD_OF_KEY[key] && !given[key]).map(([key]) => FIELD_OF_KEY[key]);
}
