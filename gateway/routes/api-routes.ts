import { Router } from 'express';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { receiverRoutes } from './receiver-routes';

/** Every REST route under the version segment, one module per resource area. */
export function apiRoutes(peers: PeerClients): Router {
  const router = Router();
  router.use(receiverRoutes(peers));
  return router;
}
