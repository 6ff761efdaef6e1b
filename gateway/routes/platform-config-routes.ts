import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import type { PlatformConfigChanges } from '../../gen/accounts/v1/platform_config_changes';
import { bodyMessage } from '../http/request-body';
import { platformConfigJson } from './platform-config-json';
import { OperationHandlers } from './operation-routes';

/** The platform's configuration: fees, limits, embedded wallets, webhook endpoint, currencies. */
export function platformConfigRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('getPlatformConfig', async (_req, res) => {
    const { config } = await peers.accounts.getPlatformConfig({}, callContext(res));
    res.status(200).json(platformConfigJson(config!));
  });

  routes.on('updatePlatformConfig', async (req, res) => {
    const { config } = await peers.accounts.updatePlatformConfig(
      { changes: bodyMessage<PlatformConfigChanges>(req, 'accounts.v1.PlatformConfigChanges') },
      callContext(res),
    );
    res.status(200).json(platformConfigJson(config!));
  });

  return routes;
}
