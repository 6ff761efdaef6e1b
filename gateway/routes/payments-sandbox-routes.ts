import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import type {
  FundInternalAccountRequest,
  SimulateSendRequest,
  SimulateUmaReceiveRequest,
} from '../../gen/quotes_transactions/v1/payments_sandbox';
import { bodyMessage } from '../http/request-body';
import { internalAccountJson } from '../../lib/contract/account-json';
import { transactionJson } from '../../lib/contract/payment-record-json';
import { RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** Sandbox money movement: fund an internal account, pay a realtime-funded quote, receive an UMA payment. */
export function paymentsSandboxRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('fundInternalAccount', async (req, res) => {
    const q = new RestRequestReader(req);
    const accountId = q.pathId('accountId', 'InternalAccount');
    q.done();
    const ctx = callContext(res);
    const funded = await peers.paymentsSandbox.fundInternalAccount(
      {
        ...bodyMessage<FundInternalAccountRequest>(req, 'quotes_transactions.v1.FundInternalAccountRequest'),
        accountId,
      },
      ctx,
    );
    const { account } = await peers.accounts.getInternalAccount({ id: accountId }, ctx);
    const json = internalAccountJson(account!);
    // The ledger is the source of truth for balances, whatever the account record caches.
    res.status(200).json({
      ...json,
      balance: { ...json.balance, amount: funded.available },
      totalBalance: { ...json.totalBalance, amount: funded.total },
    });
  });

  routes.on('simulateSend', async (req, res) => {
    const { transaction } = await peers.paymentsSandbox.simulateSend(
      bodyMessage<SimulateSendRequest>(req, 'quotes_transactions.v1.SimulateSendRequest'),
      callContext(res),
    );
    res.status(200).json(transactionJson(transaction!));
  });

  routes.on('simulateUmaReceive', async (req, res) => {
    const { transaction } = await peers.paymentsSandbox.simulateUmaReceive(
      bodyMessage<SimulateUmaReceiveRequest>(req, 'quotes_transactions.v1.SimulateUmaReceiveRequest'),
      callContext(res),
    );
    res.status(200).json(transactionJson(transaction!));
  });

  return routes;
}
