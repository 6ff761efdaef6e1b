import type { EstimateWithdrawalFeeRequest } from '../../gen/quotes_transactions/v1/withdrawal_fees';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { bodyMessage } from '../http/request-body';
import { OperationHandlers } from './operation-routes';

/** The fee estimate of a crypto withdrawal. */
export function withdrawalFeeRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();
  routes.on('estimateCryptoWithdrawalFee', async (req, res) => {
    const request = bodyMessage<EstimateWithdrawalFeeRequest>(
      req,
      'quotes_transactions.v1.EstimateWithdrawalFeeRequest',
    );
    const e = await peers.withdrawalFees.estimateWithdrawalFee(request, callContext(res));
    res.status(200).json({
      networkFee: e.networkFee,
      networkFeeAsset: e.networkFeeAsset,
      applicationFee: e.applicationFee,
      totalFee: e.totalFee,
      netAmount: e.netAmount,
    });
  });
  return routes;
}
