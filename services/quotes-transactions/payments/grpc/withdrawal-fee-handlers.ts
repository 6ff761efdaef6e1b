import { WithdrawalFeeServiceService } from '../../../../gen/quotes_transactions/v1/withdrawal_fees';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { EstimateWithdrawalFee } from '../app/estimate-withdrawal-fee';
import { callerOf } from '../../shared/grpc/payment-caller';

export function bindWithdrawalFeeService(estimateWithdrawalFee: EstimateWithdrawalFee) {
  return bindService(WithdrawalFeeServiceService, {
    async estimateWithdrawalFee(request, ctx) {
      return estimateWithdrawalFee(callerOf(ctx), request);
    },
  });
}
