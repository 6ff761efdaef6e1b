import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { jsonBodyOf } from '../http/request-body';
import { RestBody } from './rest-body';
import { OperationHandlers } from './operation-routes';

/** The fee estimate of a crypto withdrawal. */
export function withdrawalFeeRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();
  routes.on('estimateCryptoWithdrawalFee', async (req, res) => {
    const body = RestBody.of(jsonBodyOf(req));
    const request = {
      internalAccountId: body.string('internalAccountId'),
      currency: body.string('currency'),
      cryptoNetwork: body.string('cryptoNetwork'),
      amount: body.integer('amount'),
      destinationAddress: body.string('destinationAddress'),
    };
    body.done();
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
