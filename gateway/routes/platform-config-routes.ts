import { Router } from 'express';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { platformConfigJson } from './platform-config-json';
import { jsonObjectBody } from './rest-request';

/** The platform's configuration: fees, limits, embedded wallets, webhook endpoint, currencies. */
export function platformConfigRoutes(peers: PeerClients): Router {
  const router = Router();

  router.get('/config', async (_req, res) => {
    const { config } = await peers.accounts.getPlatformConfig({}, callContext(res));
    res.status(200).json(platformConfigJson(config!));
  });

  router.patch('/config', async (req, res) => {
    const { config } = await peers.accounts.updatePlatformConfig({ body: jsonObjectBody(req) }, callContext(res));
    res.status(200).json(platformConfigJson(config!));
  });

  return router;
}
