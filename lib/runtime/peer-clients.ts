import { createServiceClient, type ServiceClient } from '../grpc/grpc-client';
import { createInProcessClient, type LocalService } from '../grpc/in-process-client';
import { createPortClient, type PortChannel } from '../grpc/port-transport';
import { serviceNameOf } from '../grpc/service-binding';
import type { ServiceName } from './service-module';
import { AccountsServiceService } from '../../gen/accounts/v1/accounts';
import { DirectoryServiceService } from '../../gen/accounts/v1/directory';
import { InvitationServiceService } from '../../gen/accounts/v1/invitations';
import { AgentServiceService } from '../../gen/auth/v1/agents';
import { KycServiceService } from '../../gen/accounts/v1/verifications';
import { BeneficialOwnerServiceService } from '../../gen/accounts/v1/beneficial_owners';
import { DocumentServiceService } from '../../gen/accounts/v1/documents';
import { ContactVerificationServiceService } from '../../gen/accounts/v1/contact_verification';
import { ScaServiceService } from '../../gen/accounts/v1/sca';
import { BulkImportServiceService } from '../../gen/accounts/v1/bulk_import';
import { ApiTokenServiceService } from '../../gen/auth/v1/api_tokens';
import { SignedRetryServiceService } from '../../gen/auth/v1/signed_retry';
import { WalletAuthServiceService } from '../../gen/auth/v1/wallet_auth';
import { DeliveryServiceService } from '../../gen/notifications/v1/delivery';
import { WebhookServiceService } from '../../gen/notifications/v1/webhooks';
import { AgentActionServiceService } from '../../gen/quotes_transactions/v1/agent_actions';
import { IdempotencyServiceService } from '../../gen/quotes_transactions/v1/idempotency';
import { LedgerServiceService } from '../../gen/quotes_transactions/v1/ledger';
import { LookupServiceService } from '../../gen/quotes_transactions/v1/lookup';
import { PaymentsSandboxServiceService } from '../../gen/quotes_transactions/v1/payments_sandbox';
import { QuoteServiceService } from '../../gen/quotes_transactions/v1/quotes';
import { TransactionServiceService } from '../../gen/quotes_transactions/v1/transactions';
import { StablecoinServiceService } from '../../gen/quotes_transactions/v1/stablecoins';
import { WithdrawalFeeServiceService } from '../../gen/quotes_transactions/v1/withdrawal_fees';
import { CardSandboxServiceService, CardServiceService } from '../../gen/quotes_transactions/v1/cards';
import { DelegatedKeyServiceService } from '../../gen/quotes_transactions/v1/delegated_keys';
import { CardRevealServiceService } from '../../gen/quotes_transactions/v1/card_reveals';
import { UmaProtocolServiceService } from '../../gen/quotes_transactions/v1/uma';

/**
 * Every gRPC service definition a peer may call, by owning service. Add a service's
 * definitions here when its proto gains one.
 */
export const PEER_DEFINITIONS = {
  accounts: { owner: 'accounts', definition: AccountsServiceService },
  agents: { owner: 'auth', definition: AgentServiceService },
  agentActions: { owner: 'quotes-transactions', definition: AgentActionServiceService },
  kyc: { owner: 'accounts', definition: KycServiceService },
  beneficialOwners: { owner: 'accounts', definition: BeneficialOwnerServiceService },
  documents: { owner: 'accounts', definition: DocumentServiceService },
  contactVerification: { owner: 'accounts', definition: ContactVerificationServiceService },
  bulkImport: { owner: 'accounts', definition: BulkImportServiceService },
  sca: { owner: 'accounts', definition: ScaServiceService },
  apiTokens: { owner: 'auth', definition: ApiTokenServiceService },
  directory: { owner: 'accounts', definition: DirectoryServiceService },
  invitations: { owner: 'accounts', definition: InvitationServiceService },
  delivery: { owner: 'notifications', definition: DeliveryServiceService },
  ledger: { owner: 'quotes-transactions', definition: LedgerServiceService },
  lookup: { owner: 'quotes-transactions', definition: LookupServiceService },
  quotes: { owner: 'quotes-transactions', definition: QuoteServiceService },
  transactions: { owner: 'quotes-transactions', definition: TransactionServiceService },
  paymentsSandbox: { owner: 'quotes-transactions', definition: PaymentsSandboxServiceService },
  walletAuth: { owner: 'auth', definition: WalletAuthServiceService },
  signedRetry: { owner: 'auth', definition: SignedRetryServiceService },
  webhooks: { owner: 'notifications', definition: WebhookServiceService },
  withdrawalFees: { owner: 'quotes-transactions', definition: WithdrawalFeeServiceService },
  idempotency: { owner: 'quotes-transactions', definition: IdempotencyServiceService },
  stablecoins: { owner: 'quotes-transactions', definition: StablecoinServiceService },
  cards: { owner: 'quotes-transactions', definition: CardServiceService },
  cardSandbox: { owner: 'quotes-transactions', definition: CardSandboxServiceService },
  delegatedKeys: { owner: 'quotes-transactions', definition: DelegatedKeyServiceService },
  cardReveals: { owner: 'quotes-transactions', definition: CardRevealServiceService },
  umaProtocol: { owner: 'quotes-transactions', definition: UmaProtocolServiceService },
} as const satisfies Record<string, { owner: ServiceName; definition: object }>;

type Definitions = typeof PEER_DEFINITIONS;
export type PeerClients = { [K in keyof Definitions]: ServiceClient<Definitions[K]['definition']> };

/**
 * Clients are created on first use from `addresses`, which the runtime fills in once every
 * server has bound (embedded mode binds port 0), so modules can be built before that. A service
 * found in `local` (hosted by this thread) is called in-process, without the HTTP/2 transport;
 * one found in `ports` (the `all` mode: each service on a thread of its own) over that
 * MessagePort; any other over gRPC.
 */
export function createPeerClients(
  addresses: Partial<Record<ServiceName, string>>,
  internalToken: string,
  local: ReadonlyMap<string, LocalService> = new Map(),
  ports: Partial<Record<ServiceName, PortChannel>> = {},
): PeerClients & { closeAll(): void } {
  const made = new Map<string, { close(): void }>();
  const clients = {} as PeerClients & { closeAll(): void };
  for (const [key, { owner, definition }] of Object.entries(PEER_DEFINITIONS)) {
    Object.defineProperty(clients, key, {
      enumerable: true,
      get() {
        let client = made.get(key);
        if (!client) {
          const hosted = local.get(serviceNameOf(definition));
          const address = addresses[owner];
          const port = ports[owner];
          if (!hosted && !port && !address) throw new Error(`no address configured for the ${owner} service`);
          client = hosted
            ? createInProcessClient(definition, hosted, { internalToken })
            : port
            ? createPortClient(definition, port, { internalToken })
            : createServiceClient(definition, address!, { internalToken });
          made.set(key, client);
        }
        return client;
      },
    });
  }
  clients.closeAll = () => {
    for (const c of made.values()) c.close();
    made.clear();
  };
  return clients;
}
