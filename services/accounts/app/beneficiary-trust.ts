import { AppError } from '../../../lib/errors';
import type { Customer } from '../domain/customer';
import { scaRequired } from '../domain/sca-region';
import { riskyEventWithin } from '../domain/sca-risk';
import { liveScaSession } from './sca';
import type { ScaDeps, ScaProof, ScaProofs } from './sca-proofs';

const bindingOf = (c: Customer, externalAccountId: string, trust: boolean) =>
  `${trust ? 'trust' : 'untrust'}:${c.platformId}:${externalAccountId}`;

/** Trusted beneficiaries: payments to them skip the per-transaction challenge; each change is authorized. */
export function createBeneficiaryTrust(deps: ScaDeps, proofs: ScaProofs) {
  async function owner(platformId: string, externalAccountId: string): Promise<Customer> {
    const account = await deps.store.externalAccounts.find(platformId, externalAccountId);
    if (!account?.customerId) throw new AppError('NOT_FOUND', 'External account not found');
    return proofs.scaCustomer(platformId, account.customerId);
  }

  return {
    async start(platformId: string, externalAccountId: string, trust: boolean) {
      const c = await owner(platformId, externalAccountId);
      const { challenge, passkeyOptions } = await proofs.issue(c, {
        purpose: trust ? 'TRUST_BENEFICIARY' : 'UNTRUST_BENEFICIARY',
        binding: bindingOf(c, externalAccountId, trust),
        allowed: ['SMS_OTP', 'TOTP', 'PASSKEY'],
      });
      return { challenge, passkeyOptions };
    },

    async confirm(
      platformId: string,
      externalAccountId: string,
      trust: boolean,
      proof: ScaProof & { challengeId?: string },
    ) {
      const c = await owner(platformId, externalAccountId);
      if (!proof.challengeId) {
        throw AppError.invalidInput('Invalid request', [{
          field: 'challengeId',
          message: 'is required: the start issued a challenge',
        }]);
      }
      await proofs.verify({
        customer: c,
        challengeId: proof.challengeId,
        binding: bindingOf(c, externalAccountId, trust),
        proof,
      });
      const now = deps.clock().toISOString();
      await deps.sca.trusted.set({ platformId, customerId: c.id, externalAccountId, trusted: trust, now });
      return { trusted: trust };
    },

    /**
     * For a payment or a read: whether the customer is under SCA, whether the payee is trusted, whether a session is
     * live.
     */
    async requirement(platformId: string, customerId: string, payeeAccountId: string | undefined) {
      const customer = await deps.store.customers.find(platformId, customerId);
      if (!customer || customer.isDeleted || !scaRequired(customer)) {
        return { scaCustomer: false, challengeRequired: false, sessionLive: false };
      }
      const [trusted, security, session] = await Promise.all([
        payeeAccountId ? deps.sca.trusted.isTrusted(platformId, payeeAccountId) : false,
        deps.sca.security.find(platformId, customerId),
        liveScaSession(deps, platformId, customerId),
      ]);
      // A recent risky security event removes the trusted-beneficiary exemption (domain/sca-risk.ts).
      const challengeRequired = !trusted || riskyEventWithin(security, deps.clock()) !== undefined;
      return { scaCustomer: true, challengeRequired, sessionLive: session !== undefined };
    },
  };
}
