import { Router } from 'express';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { jsonBodyOf } from '../http/request-body';
import { platformConfigJson } from './platform-config-json';
import { platformConfigChanges } from './platform-config-requests';

/** The platform's configuration: fees, limits, embedded wallets, webhook endpoint, currencies. */
export function platformConfigRoutes(peers: PeerClients): Router {
  const router = Router();

  router.get('/config', async (_req, res) => {
    const { config } = await peers.accounts.getPlatformConfig({}, callContext(res));
    res.status(200).json(platformConfigJson(config!));
  });

  router.patch('/config', async (req, res) => {
    const { config } = await peers.accounts.updatePlatformConfig({ changes: platformConfigChanges(jsonBodyOf(req)) }, callContext(res));
    res.status(200).json(platformConfigJson(config!));
  });

  return router;
}
