import type { UmaProvider as UmaProviderMessage } from '../../gen/accounts/v1/directory';
import { contractJson } from '../../lib/contract/contract-json';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { DiscoveryList, UmaProvider } from '../contract/directory-contract';
import { callContext } from '../http/call-context';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

const umaProviderJson = (p: UmaProviderMessage) => contractJson(UmaProvider, p);

/** The directory: UMA providers and the banks of each corridor. */
export function directoryRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('getAvailableUmaProviders', async (req, res) => {
    const q = new RestRequestReader(req);
    const blocked = q.query('hasBlockedProviders');
    const request = {
      countryCode: q.query('countryCode'),
      currencyCode: q.query('currencyCode'),
      hasBlockedProviders: blocked === undefined ? undefined : q.boolean('hasBlockedProviders'),
      limit: q.limit(),
      cursor: q.query('cursor'),
      sortOrder: q.query('sortOrder'),
    };
    q.done();
    const page = await peers.directory.listUmaProviders(request, callContext(res));
    res.status(200).json(listJson(page, page.data, umaProviderJson));
  });

  routes.on('getDiscoveries', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = { country: q.query('country'), currency: q.query('currency') };
    q.done();
    const { data } = await peers.directory.listDiscoveries(request, callContext(res));
    res.status(200).json(contractJson(DiscoveryList, { data }));
  });

  return routes;
}
