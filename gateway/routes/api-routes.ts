import { Router } from 'express';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { apiTokenRoutes } from './api-token-routes';
import type { AuthThrottle } from '../http/auth-throttle';
import { agentManagementRoutes } from './agent-management-routes';
import { agentOperationRoutes } from './agent-operation-routes';
import { customerRoutes } from './customer-routes';
import { directoryRoutes } from './directory-routes';
import { invitationRoutes } from './invitation-routes';
import { verificationRoutes } from './verification-routes';
import { beneficialOwnerRoutes } from './beneficial-owner-routes';
import { documentRoutes } from './document-routes';
import { contactVerificationRoutes } from './contact-verification-routes';
import { scaRoutes } from './sca-routes';
import { bulkImportRoutes } from './bulk-import-routes';
import { externalAccountRoutes } from './external-account-routes';
import { internalAccountRoutes } from './internal-account-routes';
import { platformConfigRoutes } from './platform-config-routes';
import { paymentsQuoteRoutes } from './payments-quote-routes';
import { paymentsSandboxRoutes } from './payments-sandbox-routes';
import { paymentsTransactionRoutes } from './payments-transaction-routes';
import { receiverRoutes } from './receiver-routes';
import { walletAccountRoutes } from './wallet-account-routes';
import { walletAuthRoutes } from './wallet-auth-routes';
import { webhookRoutes } from './webhook-routes';
import { withdrawalFeeRoutes } from './withdrawal-fee-routes';
import { stablecoinRoutes } from './stablecoin-routes';
import { cardRoutes, cardSandboxRoutes } from './card-routes';
import { delegatedKeyRoutes } from './delegated-key-routes';
import { dispatchByOperation } from './operation-dispatch';

type ApiRouteOptions = { forgetToken?: (clientId: string) => void; throttle?: AuthThrottle };

/** Every REST route under the version segment, each request sent to the area serving its operation. */
export function apiRoutes(peers: PeerClients, options: ApiRouteOptions = {}) {
  return dispatchByOperation(apiAreas(peers, options));
}

/** The routers of the resource areas, one module each, in the order they are tried. */
export function apiAreas(peers: PeerClients, options: ApiRouteOptions = {}): Router[] {
  const areas: Router[] = [];
  const router = { use: (area: Router) => void areas.push(area) };
  router.use(apiTokenRoutes(peers, options.forgetToken ?? (() => undefined)));
  router.use(invitationRoutes(peers));
  router.use(directoryRoutes(peers));
  router.use(withdrawalFeeRoutes(peers));
  router.use(stablecoinRoutes(peers));
  router.use(cardRoutes(peers));
  router.use(cardSandboxRoutes(peers));
  router.use(platformConfigRoutes(peers));
  router.use(verificationRoutes(peers));
  router.use(beneficialOwnerRoutes(peers));
  router.use(documentRoutes(peers));
  router.use(contactVerificationRoutes(peers));
  router.use(scaRoutes(peers));
  router.use(bulkImportRoutes(peers));
  router.use(customerRoutes(peers));
  router.use(internalAccountRoutes(peers));
  router.use(externalAccountRoutes(peers));
  router.use(receiverRoutes(peers));
  router.use(paymentsQuoteRoutes(peers));
  router.use(paymentsTransactionRoutes(peers));
  router.use(paymentsSandboxRoutes(peers));
  router.use(delegatedKeyRoutes(peers));
  router.use(walletAuthRoutes(peers));
  router.use(walletAccountRoutes(peers));
  router.use(webhookRoutes(peers));
  // /agents/me… before /agents/{agentId}…
  router.use(agentOperationRoutes(peers));
  router.use(agentManagementRoutes(peers, options.throttle));
  return areas;
}
