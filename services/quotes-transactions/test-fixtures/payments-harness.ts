import { AgentActionServiceService } from '../../../gen/quotes_transactions/v1/agent_actions';
import { CardServiceService } from '../../../gen/quotes_transactions/v1/cards';
import { createFakeScaBinding } from './fake-sca-service';
import { LedgerServiceService } from '../../../gen/quotes_transactions/v1/ledger';
import { balanceRecordsOf } from '../ledger/store/ledger-document-store';
import { LookupServiceService } from '../../../gen/quotes_transactions/v1/lookup';
import { PaymentsSandboxServiceService } from '../../../gen/quotes_transactions/v1/payments_sandbox';
import { QuoteServiceService } from '../../../gen/quotes_transactions/v1/quotes';
import { SettlementRailServiceService } from '../../../gen/quotes_transactions/v1/settlement_rail';
import { TransactionServiceService } from '../../../gen/quotes_transactions/v1/transactions';
import { createInProcessEventBus } from '../../../lib/bus/in-process-event-bus';
import type { DomainEvent } from '../../../lib/bus/event-bus';
import { createOutboxRelay } from '../../../lib/bus/outbox';
import type { EventBus } from '../../../lib/bus/event-bus';
import type { Lease } from '../../../lib/runtime/lease';
import { createServiceClient } from '../../../lib/grpc/grpc-client';
import { startGrpcServer, type RunningGrpcServer } from '../../../lib/grpc/grpc-server';
import { silentLogger } from '../../../lib/log';
import { createPeerClients } from '../../../lib/runtime/peer-clients';
import type { ServiceName } from '../../../lib/runtime/service-module';
import type { DocumentStore } from '../../../lib/store/document-store';
import { createEmbeddedDocumentStore } from '../../../lib/store/embedded-document-store';
import type { WalletAuthorizer } from '../payments/app/wallet-authorizer';
import { createQuotesTransactionsService } from '../quotes-transactions-service';
import { createFakePaymentAccounts } from './fake-payment-accounts';

const TOKEN = 'payments-test-token';
export const PLATFORM = 'Platform:11111111-1111-4111-8111-111111111111';
export const OTHER_PLATFORM = 'Platform:22222222-2222-4222-8222-222222222222';
export const asPlatform = { platformId: PLATFORM };

/** The quotes-transactions service on a real gRPC server, with fake accounts; settlement runs fast. */
export async function startPaymentsHarness(
  env: NodeJS.ProcessEnv = {},
  options: {
    store?: DocumentStore;
    wallets?: WalletAuthorizer;
    leases?: (name: string) => Lease;
    bus?: EventBus;
    accounts?: ReturnType<typeof createFakePaymentAccounts>;
  } = {},
) {
  const accounts = options.accounts ?? createFakePaymentAccounts();
  const store = options.store ?? createEmbeddedDocumentStore();
  const bus = options.bus ?? createInProcessEventBus();
  const servers: RunningGrpcServer[] = [];
  const addresses: Partial<Record<ServiceName, string>> = {};
  const peers = createPeerClients(addresses, TOKEN);
  const start = async (name: string, bindings: Parameters<typeof startGrpcServer>[0]['bindings']) => {
    const server = await startGrpcServer({
      name,
      bindings,
      internalToken: TOKEN,
      logger: silentLogger,
      address: '127.0.0.1:0',
    });
    servers.push(server);
    return server.address;
  };
  addresses.accounts = await start('accounts', [accounts.binding, createFakeScaBinding()]);
  const service = createQuotesTransactionsService({
    store,
    bus,
    logger: silentLogger,
    peers,
    ...(options.leases ? { leases: options.leases } : {}),
    env: { SANDBOX_SETTLEMENT_STEP_MS: '20', SETTLEMENT_POLL_MS: '10', ...env },
  }, options.wallets ? { wallets: options.wallets } : {});
  await service.start?.();
  const events: DomainEvent[] = [];
  await bus.subscribe({
    topic: service.eventsTopic!,
    group: 'test',
    handler: async (e) => {
      events.push(e);
    },
  });
  const relay = createOutboxRelay({
    collections: service.outboxCollections!,
    bus,
    topic: service.eventsTopic!,
    intervalMs: 10,
    logger: silentLogger,
    ...(options.leases ? { lease: options.leases('outbox relay') } : {}),
  });
  relay.start();
  const address = (addresses['quotes-transactions'] = await start(service.name, service.bindings));
  const client = <D extends Parameters<typeof createServiceClient>[0]>(definition: D) =>
    createServiceClient(definition, address, { internalToken: TOKEN });
  const clients = {
    quotes: client(QuoteServiceService),
    transactions: client(TransactionServiceService),
    sandbox: client(PaymentsSandboxServiceService),
    ledger: client(LedgerServiceService),
    lookup: client(LookupServiceService),
    agentActions: client(AgentActionServiceService),
    rail: client(SettlementRailServiceService),
    cards: client(CardServiceService),
  };

  return {
    accounts,
    store,
    events,
    address,
    ...clients,
    /** Every balance document: the proof that each currency sums to zero. */
    async balanceSums(): Promise<Record<string, number>> {
      const sums: Record<string, number> = {};
      for (const b of (await store.collection('ledger_balances').find({})).flatMap(balanceRecordsOf)) {
        sums[b.currency] = (sums[b.currency] ?? 0) + b.available;
      }
      return sums;
    },
    async flushEvents() {
      await relay.flush();
      await new Promise((r) => setTimeout(r, 20));
    },
    async stop() {
      Object.values(clients).forEach((c) => c.close());
      peers.closeAll();
      await service.stop?.();
      await relay.stop();
      await Promise.all(servers.map((s) => s.shutdown(100)));
    },
  };
}

export type PaymentsHarness = Awaited<ReturnType<typeof startPaymentsHarness>>;

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 15));
  }
}

export function mxnAccountInfo(fullName = 'Ana Ruiz'): Record<string, unknown> {
  return {
    accountType: 'MXN_ACCOUNT',
    clabeNumber: '123456789012345678',
    paymentRails: ['SPEI'],
    beneficiary: {
      beneficiaryType: 'INDIVIDUAL',
      fullName,
      address: { line1: 'Av. Reforma 1', postalCode: '06600', country: 'MX' },
    },
  };
}

export function usdAccountInfo(): Record<string, unknown> {
  return {
    accountType: 'USD_ACCOUNT',
    accountNumber: '12345678901',
    routingNumber: '021000021',
    paymentRails: ['ACH', 'WIRE'],
    beneficiary: {
      beneficiaryType: 'INDIVIDUAL',
      fullName: 'John Doe',
      address: { line1: '1 Main St', postalCode: '10001', country: 'US' },
    },
  };
}

export function solanaWalletInfo(): Record<string, unknown> {
  return { accountType: 'SOLANA_WALLET', address: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' };
}
