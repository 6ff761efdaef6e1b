import type { BeneficialOwner } from '../../gen/accounts/v1/beneficial_owners';
import { withoutAbsent } from './json-members';

/** The REST BeneficialOwner; the identification number is returned masked (its last four characters). */
export function ownerJson(o: BeneficialOwner) {
  const p = o.personalInfo!;
  return withoutAbsent({
    id: o.id,
    customerId: o.customerId,
    roles: o.roles,
    ownershipPercentage: o.ownershipPercentage,
    personalInfo: withoutAbsent({
      firstName: p.firstName,
      middleName: p.middleName,
      lastName: p.lastName,
      birthDate: p.birthDate,
      nationality: p.nationality,
      email: p.email,
      phoneNumber: p.phoneNumber,
      address: p.address && withoutAbsent({ ...p.address }),
      idType: p.idType,
      identifier: p.maskedIdentifier,
      countryOfIssuance: p.countryOfIssuance,
    }),
    kycStatus: o.kycStatus,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  });
}
