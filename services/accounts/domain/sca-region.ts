import { EEA_COUNTRIES } from './eea-countries';

/**
 * Who Strong Customer Authentication (PSD2) applies to: customers of the EU/EEA, decided by the
 * first of these the customer has (docs/api/sca.md):
 *
 * | Source            | Example                   |
 * |-------------------|---------------------------|
 * | `region`          | `"region": "FR"`          |
 * | `address.country` | `"address": {"country": "DE", ...}` |
 * | `nationality`     | `"nationality": "IT"`     |
 *
 * A customer whose first source names another country (e.g. `US`) is not under SCA, whatever the
 * later sources say: every SCA operation answers 409 and nothing of their flows changes.
 */
export const SCA_REGIONS: readonly string[] = EEA_COUNTRIES;

export interface ScaRegionFacts {
  region?: string;
  address?: { country?: string };
  nationality?: string;
}

/** The country that decides, or undefined when the customer names none. */
export function scaCountryOf(customer: ScaRegionFacts): string | undefined {
  return customer.region ?? customer.address?.country ?? customer.nationality;
}

export function scaRequired(customer: ScaRegionFacts): boolean {
  const country = scaCountryOf(customer);
  return country !== undefined && SCA_REGIONS.includes(country.toUpperCase());
}
