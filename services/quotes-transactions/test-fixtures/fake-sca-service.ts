import { ScaServiceService } from '../../../gen/accounts/v1/sca';
import { AppError } from '../../../lib/errors';
import { bindService } from '../../../lib/grpc/service-binding';

const notHere = async (): Promise<never> => {
  throw new AppError('CONFLICT', "Strong Customer Authentication is not required for this customer's region");
};

/** The accounts service's SCA as the fake accounts answer it: no customer is under SCA. */
export function createFakeScaBinding() {
  return bindService(ScaServiceService, {
    getScaRequirement: async () => ({ scaCustomer: false, challengeRequired: false, sessionLive: false }),
    listScaFactors: notHere,
    startScaEnrollment: notHere,
    confirmScaEnrollment: notHere,
    deleteScaFactor: notHere,
    startScaLogin: notHere,
    completeScaLogin: notHere,
    recordSecurityEvent: notHere,
    startTwoFactorReset: notHere,
    getTwoFactorReset: notHere,
    completeTwoFactorReset: notHere,
    startBeneficiaryTrust: notHere,
    confirmBeneficiaryTrust: notHere,
    issueScaChallenge: notHere,
    resendScaChallenge: notHere,
    verifyScaProof: notHere,
  });
}
