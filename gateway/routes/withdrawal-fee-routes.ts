import type { EstimateWithdrawalFeeRequest } from '../../gen/quotes_transactions/v1/withdrawal_fees';
import { contractJson } from '../../lib/contract/contract-json';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { EstimateCryptoWithdrawalFeeResponse } from '../contract/withdrawal-fee-contract';
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
    res.status(200).json(contractJson(EstimateCryptoWithdrawalFeeResponse, e));
  });
  return routes;
}
