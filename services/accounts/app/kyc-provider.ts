import type { Customer } from '../domain/customer';
import type { ProviderStep } from '../domain/verification';

/** What the hosted page lets the customer (in the sandbox: the tester) choose. */
export type HostedOutcome = 'APPROVE' | 'REJECT' | 'MANUAL_REVIEW' | 'RESOLVE_ERRORS';

export interface ProviderSubmission {
  customer: Customer;
  /** A business's beneficial owners, screened one by one. */
  owners?: { id: string; firstName?: string; lastName?: string }[];
  /** 1 for the first time the customer goes to the provider. */
  attempt: number;
  /** Chosen on the hosted page; absent for API submissions. */
  hostedOutcome?: HostedOutcome;
}

/**
 * The KYC/KYB provider port: it issues hosted-flow tokens and decides applications. The
 * provider's answers arrive later; `submit` tells the steps it will take, which a worker applies
 * one by one (a real provider's webhook would deliver the same steps).
 */
export interface KycProvider {
  /** The REST KycProvider value. */
  readonly name: string;
  /** A provider SDK token for embedding the flow, when the provider offers one. */
  sdkToken(customer: Customer): string | undefined;
  submit(submission: ProviderSubmission): ProviderStep[];
}
