import type { UmaProvider } from '../../gen/accounts/v1/directory';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { listJson, RestRequestReader, withoutAbsent } from './rest-request';
import { OperationHandlers } from './operation-routes';

function umaProviderJson(p: UmaProvider) {
  return withoutAbsent({
    name: p.name,
    supportedRegions: p.supportedRegions,
    domain: p.domain,
    logoUrl: p.logoUrl,
    supportedCurrencies: p.supportedCurrencies.map(({ code, name, symbol, decimals }) => ({
      code,
      name,
      symbol,
      decimals,
    })),
    lei: p.lei,
    allowListStatus: p.allowListStatus,
  });
}

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
    res.status(200).json({
      data: data.map(({ bankName, displayName, country, currency }) => ({ bankName, displayName, country, currency })),
    });
  });

  return routes;
}
