import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { internalAccountJson } from '../../lib/contract/account-json';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** Internal accounts of customers (paginated) and of the platform (not paginated). */
export function internalAccountRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('listCustomerInternalAccounts', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      customerId: q.query('customerId'),
      currency: q.query('currency'),
      type: q.query('type'),
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.accounts.listInternalAccounts(request, callContext(res));
    res.status(200).json(listJson(page, page.accounts, internalAccountJson));
  });

  routes.on('listPlatformInternalAccounts', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = { currency: q.query('currency'), type: q.query('type') };
    q.done();
    const { accounts } = await peers.accounts.listPlatformInternalAccounts(request, callContext(res));
    res.status(200).json({ data: accounts.map(internalAccountJson) });
  });

  return routes;
}
