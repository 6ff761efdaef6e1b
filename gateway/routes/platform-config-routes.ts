import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import type { PlatformConfig as PlatformConfigMessage } from '../../gen/accounts/v1/platform_config';
import type { PlatformConfigChanges } from '../../gen/accounts/v1/platform_config_changes';
import { contractJson } from '../../lib/contract/contract-json';
import { PlatformConfig } from '../contract/platform-config-contract';
import { bodyMessage } from '../http/request-body';
import { OperationHandlers } from './operation-routes';

/** The REST PlatformConfig (plus `limits`). */
function platformConfigJson(c: PlatformConfigMessage) {
  return contractJson(PlatformConfig, {
    ...c,
    // REST requires a fee's fixedFee; the message may leave it out, which means none in the fee's source currency.
    feeConfigs: c.feeConfigs.map((f) => ({ ...f, fixedFee: f.fixedFee ?? { amount: 0, currency: f.sourceCurrency } })),
  });
}

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
