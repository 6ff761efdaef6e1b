import { Router } from 'express';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { customerRoutes } from './customer-routes';
import { verificationRoutes } from './verification-routes';
import { beneficialOwnerRoutes } from './beneficial-owner-routes';
import { documentRoutes } from './document-routes';
import { contactVerificationRoutes } from './contact-verification-routes';
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

/** Every REST route under the version segment, one module per resource area. */
export function apiRoutes(peers: PeerClients): Router {
  const router = Router();
  router.use(platformConfigRoutes(peers));
  router.use(verificationRoutes(peers));
  router.use(beneficialOwnerRoutes(peers));
  router.use(documentRoutes(peers));
  router.use(contactVerificationRoutes(peers));
  router.use(bulkImportRoutes(peers));
  router.use(customerRoutes(peers));
  router.use(internalAccountRoutes(peers));
  router.use(externalAccountRoutes(peers));
  router.use(receiverRoutes(peers));
  router.use(paymentsQuoteRoutes(peers));
  router.use(paymentsTransactionRoutes(peers));
  router.use(paymentsSandboxRoutes(peers));
  router.use(walletAuthRoutes(peers));
  router.use(walletAccountRoutes(peers));
  router.use(webhookRoutes(peers));
  return router;
}
