import type { CustomerProfile } from './customer';
import type { FieldError } from '../../../lib/errors';

const SSN = /^(?!000|666|9\d\d)\d{3}-?(?!00)\d{2}-?(?!0000)\d{4}$/;
const ITIN = /^9\d{2}-?(5\d|6[0-5]|7\d|8[0-8]|9[0-24-9])-?\d{4}$/;

/** A free-text description that only goes with OTHER among the categories given in the same request. */
function describedOnlyWithOther(
  chosen: string[] | string | undefined,
  description: string | undefined,
  field: string,
  list: string,
): FieldError[] {
  if (chosen === undefined || description === undefined) return [];
  const values = Array.isArray(chosen) ? chosen : [chosen];
  return values.includes('OTHER') ? [] : [{ field, message: `is only given when ${list} includes OTHER` }];
}

/**
 * Rules between the due-diligence members of one individual's request (each member's own shape
 * is checked where it is read): identification numbers in their format and issued by the US for
 * SSN and ITIN, and "other" descriptions only beside OTHER. Answers the rules broken, none when valid.
 */
export function dueDiligenceProblems(p: CustomerProfile): FieldError[] {
  const problems: FieldError[] = [];
  if (p.identifier !== undefined && p.idType === 'SSN' && !SSN.test(p.identifier)) {
    problems.push({
      field: 'identifier',
      message: 'must be an SSN (###-##-####)',
      constraint: { format: 'us-ssn', pattern: SSN.source },
    });
  }
  if (p.identifier !== undefined && p.idType === 'ITIN' && !ITIN.test(p.identifier)) {
    problems.push({
      field: 'identifier',
      message: 'must be an ITIN (9##-##-####)',
      constraint: { pattern: ITIN.source },
    });
  }
  if (
    (p.idType === 'SSN' || p.idType === 'ITIN') && p.countryOfIssuance !== undefined && p.countryOfIssuance !== 'US'
  ) {
    problems.push({
      field: 'countryOfIssuance',
      message: 'must be US for an SSN or ITIN',
      constraint: { enum: ['US'] },
    });
  }
  return [
    ...problems,
    ...describedOnlyWithOther(
      p.sourceOfFundsCategories,
      p.sourceOfFundsOtherDescription,
      'sourceOfFundsOtherDescription',
      'sourceOfFundsCategories',
    ),
    ...describedOnlyWithOther(
      p.sourceOfWealthCategories,
      p.sourceOfWealthOtherDescription,
      'sourceOfWealthOtherDescription',
      'sourceOfWealthCategories',
    ),
    ...describedOnlyWithOther(
      p.purposeOfAccount,
      p.purposeOfAccountOtherDescription,
      'purposeOfAccountOtherDescription',
      'purposeOfAccount',
    ),
  ];
}
