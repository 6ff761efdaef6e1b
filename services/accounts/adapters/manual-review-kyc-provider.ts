import type { KycProvider } from '../app/kyc-provider';

/**
 * The provider outside the sandbox while no real KYC/KYB provider is wired: nobody is screened,
 * so nobody is decided. Every application (hosted or by API) waits in PENDING_MANUAL_REVIEW; the
 * outcome chosen on the hosted page and the sandbox applicant names mean nothing here.
 */
export function createManualReviewKycProvider(): KycProvider {
  return {
    name: 'SUMSUB',
    sdkToken: () => undefined,
    submit: () => [{ status: 'PENDING_MANUAL_REVIEW' }],
  };
}
