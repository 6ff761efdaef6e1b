import { defined, readAddress, TEXT } from './customer-fields';
import type { FieldReader, JsonObject } from './field-reader';
import { E164 } from '../../../lib/value-formats';

export const BENEFICIARY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;

/**
 * `accountInfo.beneficiary`: the account holder, an individual or a business. Some rails need
 * the individual's country of residence (`countryOfResidenceRequired`).
 */
export function readBeneficiary(
  r: FieldReader,
  info: JsonObject,
  options: { required: boolean; countryOfResidenceRequired?: boolean },
): JsonObject | undefined {
  const field = 'accountInfo.beneficiary';
  const obj = r.object(info, 'beneficiary', field, options.required);
  if (!obj) return undefined;
  const f = (key: string) => `${field}.${key}`;
  const type = r.enumValue(obj, 'beneficiaryType', f('beneficiaryType'), BENEFICIARY_TYPES, true);
  const contact = {
    email: r.string(obj, 'email', f('email'), { format: 'email' }),
    phoneNumber: r.string(obj, 'phoneNumber', f('phoneNumber'), { pattern: E164, format: 'e.164' }),
    address: readAddress(r, obj, f('address')),
  };
  if (type === 'INDIVIDUAL') {
    return defined({
      beneficiaryType: type,
      fullName: r.string(obj, 'fullName', f('fullName'), { ...TEXT, required: true }),
      birthDate: r.string(obj, 'birthDate', f('birthDate'), { format: 'date' }),
      nationality: r.string(obj, 'nationality', f('nationality'), { format: 'iso3166-1-alpha-2' }),
      countryOfResidence: r.string(obj, 'countryOfResidence', f('countryOfResidence'), {
        format: 'iso3166-1-alpha-2', required: options.countryOfResidenceRequired,
      }),
      ...contact,
    });
  }
  if (type === 'BUSINESS') {
    return defined({
      beneficiaryType: type,
      legalName: r.string(obj, 'legalName', f('legalName'), { ...TEXT, required: true }),
      registrationNumber: r.string(obj, 'registrationNumber', f('registrationNumber'), { minLength: 1, maxLength: 64 }),
      taxId: r.string(obj, 'taxId', f('taxId'), { minLength: 1, maxLength: 64 }),
      countryOfResidence: r.string(obj, 'countryOfResidence', f('countryOfResidence'), { format: 'iso3166-1-alpha-2' }),
      ...contact,
    });
  }
  return undefined;
}
