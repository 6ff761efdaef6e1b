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
import { API_VERSION } from '../contract/api-version';
import { OperationHandlers, operationRoutes } from './operation-routes';

type ApiRouteOptions = { forgetToken?: (clientId: string) => void; throttle?: AuthThrottle };

/** Every REST route under the version segment, each request sent to the handler of its operation. */
export function apiRoutes(peers: PeerClients, options: ApiRouteOptions = {}) {
  return operationRoutes(apiHandlers(peers, options), `/${API_VERSION}`);
}

/** The handlers of the resource areas, one module each. */
export function apiHandlers(peers: PeerClients, options: ApiRouteOptions = {}): OperationHandlers {
  return OperationHandlers.merge([
    apiTokenRoutes(peers, options.forgetToken ?? (() => undefined)),
    invitationRoutes(peers),
    directoryRoutes(peers),
    withdrawalFeeRoutes(peers),
    stablecoinRoutes(peers),
    cardRoutes(peers),
    cardSandboxRoutes(peers),
    platformConfigRoutes(peers),
    verificationRoutes(peers),
    beneficialOwnerRoutes(peers),
    documentRoutes(peers),
    contactVerificationRoutes(peers),
    scaRoutes(peers),
    bulkImportRoutes(peers),
    customerRoutes(peers),
    internalAccountRoutes(peers),
    externalAccountRoutes(peers),
    receiverRoutes(peers),
    paymentsQuoteRoutes(peers),
    paymentsTransactionRoutes(peers),
    paymentsSandboxRoutes(peers),
    delegatedKeyRoutes(peers),
    walletAuthRoutes(peers),
    walletAccountRoutes(peers),
    webhookRoutes(peers),
    agentOperationRoutes(peers),
    agentManagementRoutes(peers, options.throttle),
  ]);
}
