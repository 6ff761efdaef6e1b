import type { HostedOutcome, KycProvider, ProviderSubmission } from '../app/kyc-provider';
import type { Customer } from '../domain/customer';
import type { ProviderStep } from '../domain/verification';

/**
 * Applicant names (whole name, any case; an owner's first and last name) that choose the sandbox outcome of an API
 * submission.
 */
export const SANDBOX_APPLICANT_NAMES: Record<string, HostedOutcome> = {
  'sandbox kyc reject': 'REJECT',
  'sandbox kyc review': 'MANUAL_REVIEW',
  'sandbox kyc resolve errors': 'RESOLVE_ERRORS',
};

function applicantName(c: Customer): string {
  return (c.customerType === 'BUSINESS' ? c.businessInfo?.legalName : c.fullName)?.trim().toLowerCase() ?? '';
}

function stepsFor(outcome: HostedOutcome, s: ProviderSubmission): ProviderStep[] {
  const id = s.customer.id;
  switch (outcome) {
    case 'REJECT':
      return [{
        status: 'REJECTED',
        errors: [{ resourceId: id, type: 'APPLICANT_REJECTED', reason: 'The applicant did not pass screening' }],
      }];
    case 'MANUAL_REVIEW':
      return [{ status: 'PENDING_MANUAL_REVIEW' }, { status: 'APPROVED' }];
    case 'RESOLVE_ERRORS':
      // Asked once: a resubmission after the fix is approved.
      if (s.attempt > 1) return [{ status: 'APPROVED' }];
      return [{
        status: 'RESOLVE_ERRORS',
        errors: [{
          resourceId: id,
          type: 'POOR_QUALITY_DOCUMENT',
          acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
          reason: 'The identity document could not be read; upload a clearer one and resubmit',
        }],
      }];
    default:
      return [{ status: 'APPROVED' }];
  }
}

/**
 * The embedded default provider: no one is screened. The outcome is the one chosen on the hosted
 * page, or for an API submission the one the applicant's name asks for (approved otherwise).
 */
export function createSandboxKycProvider(): KycProvider {
  return {
    name: 'SUMSUB',
    sdkToken: (customer) => `_act-sbx-${customer.id.slice('Customer:'.length)}`,
    submit(submission) {
      const flagged = (submission.owners ?? []).filter((o) =>
        SANDBOX_APPLICANT_NAMES[`${o.firstName ?? ''} ${o.lastName ?? ''}`.trim().toLowerCase()] === 'REJECT'
      );
      if (flagged.length && !submission.hostedOutcome) {
        // Each owner has its own screening: the flagged one is rejected, and its business with it.
        return [{
          status: 'REJECTED',
          errors: flagged.map((o) => ({
            resourceId: o.id,
            type: 'APPLICANT_REJECTED' as const,
            reason: 'A beneficial owner did not pass screening',
          })),
          ownerStatuses: Object.fromEntries(
            (submission.owners ?? []).map((
              o,
            ) => [o.id, flagged.includes(o) ? 'REJECTED' as const : 'APPROVED' as const]),
          ),
        }];
      }
      const outcome = submission.hostedOutcome ?? SANDBOX_APPLICANT_NAMES[applicantName(submission.customer)]
        ?? 'APPROVE';
      return stepsFor(outcome, submission);
    },
  };
}
