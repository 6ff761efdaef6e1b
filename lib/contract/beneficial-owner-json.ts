import type { BeneficialOwner } from '../../gen/accounts/v1/beneficial_owners';
import { BeneficialOwner as BeneficialOwnerSchema } from './beneficial-owner-records';
import { contractJson } from './contract-json';

/** The REST BeneficialOwner. */
export function ownerJson(o: BeneficialOwner) {
  const p = o.personalInfo!;
  // REST's identifier is the masked one: the message names it so, and never carries the number itself.
  return contractJson(BeneficialOwnerSchema, { ...o, personalInfo: { ...p, identifier: p.maskedIdentifier } });
}
