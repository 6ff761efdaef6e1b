import { newEvent as defaultNewEvent, type NewEvent } from '../../lib/bus/outbox';
import { readConfig, setting } from '../../lib/config';
import { createPeriodicTask } from '../../lib/runtime/periodic-task';
import type { ServiceEnvironment } from '../../lib/runtime/service-module';
import { createAesGcmSealer, readSealingKey } from '../../lib/sealing/aes-gcm-sealer';
import { createCardholdersPeer } from './adapters/cardholders-peer';
import { createSandboxCardIssuer } from './adapters/sandbox-card-issuer';
import type { CardIssuer, Cardholders } from './app/cards/card-ports';
import { createCardProvisioning } from './app/cards/card-provisioning';
import { createCardUseCases, type CardUseCases } from './app/cards/card-use-cases';
import { createCardAuthorizations } from './app/cards/card-authorizations';
import type { Ledger } from './app/ledger';
import { createCardTransactionDocumentStore } from './store/card-transaction-document-store';
import { bindCardService } from './grpc/card-handlers';
import { bindCardSandboxService } from './grpc/card-sandbox-handlers';
import { createCardSandbox } from './app/cards/card-sandbox';
import { readPaymentsConfig } from './payments-module';
import { createCardDocumentStore } from './store/card-document-store';

export function readCardsConfig(env: NodeJS.ProcessEnv) {
  return readConfig({
    /** A card still PROCESSING this long (its provisioning was interrupted) is provisioned again by the recovery task */
    CARDS_PROVISIONING_RECOVERY_MS: setting.int(5_000, 100, 3_600_000),
    /** An approved card authorization not cleared this long after it was approved expires: its hold goes back to the funding source (default 7 days, as card networks commonly let holds lapse) */
    CARDS_AUTHORIZATION_EXPIRY_MS: setting.int(7 * 24 * 3_600_000, 1_000, 90 * 24 * 3_600_000),
    /** How often the card authorization worker looks for stale holds and due sandbox pull confirmations */
    CARDS_EXPIRY_POLL_MS: setting.int(60_000, 50, 3_600_000),
    /** Sandbox: how long a pull simulated with the descriptor suffix 005 stays pending before the issuer confirms it */
    CARDS_SANDBOX_PULL_CONFIRM_MS: setting.sandboxOnly(setting.int(30_000, 0, 3_600_000)),
  }, env);
}

/** Cards: issuing and the card lifecycle, with the embedded sandbox issuer unless one is given. */
export function createCardsModule(environment: ServiceEnvironment, adapters: { now: () => Date; ledger: Ledger; newEvent?: NewEvent; cardholders?: Cardholders; issuer?: CardIssuer }) {
  const config = readCardsConfig(environment.env);
  const clock = adapters.now;
  const cardStore = createCardDocumentStore(environment.store);
  const sandboxIssuer = createSandboxCardIssuer({ store: environment.store, sealer: createAesGcmSealer(readSealingKey('CARDS_DATA_KEY', environment.env)), clock });
  const issuer = adapters.issuer ?? sandboxIssuer;
  let cards: CardUseCases | undefined;
  const provisioning = createCardProvisioning({ store: cardStore.port, issuer, cards: () => cards!, clock, logger: environment.logger });
  const cardholders = adapters.cardholders ?? createCardholdersPeer(environment.peers);
  const newEvent = adapters.newEvent ?? defaultNewEvent;
  cards = createCardUseCases({ store: cardStore.port, cardholders, newEvent, clock, provisionLater: provisioning.provisionLater });
  const transactionStore = createCardTransactionDocumentStore(environment.store);
  // The decisioning the issuer port (and the sandbox simulations) call; not served over gRPC yet.
  const authorizations = createCardAuthorizations({
    store: transactionStore.port, ledger: adapters.ledger, newEvent, clock, card: cards.get,
    platformCustomerId: async (caller, customerId) => (await cardholders.read(caller, customerId, [])).platformCustomerId ?? '',
  });
  const payments = readPaymentsConfig(environment.env);
  // The payment simulations' switch: one sandbox setting for both.
  const sandbox = createCardSandbox({ enabled: payments.SANDBOX_PAYMENTS_ENABLED, authorizations, clock, pullConfirmDelayMs: config.CARDS_SANDBOX_PULL_CONFIRM_MS });
  // One replica at a time expires stale holds; each expiry is a conditional, serialized event anyway.
  const expiry = createPeriodicTask({
    name: 'card authorization expiry', intervalMs: config.CARDS_EXPIRY_POLL_MS, logger: environment.logger,
    run: () => authorizations.expireStale(config.CARDS_AUTHORIZATION_EXPIRY_MS),
    ...(environment.leases ? { lease: environment.leases('card-authorization-expiry') } : {}),
  });
  const decisionRecovery = createPeriodicTask({
    name: 'card decision recovery', intervalMs: Math.max(1_000, payments.LEDGER_RECOVERY_AFTER_MS), logger: environment.logger,
    run: () => authorizations.finishInterrupted(payments.LEDGER_RECOVERY_AFTER_MS),
  });
  const recovery = createPeriodicTask({
    name: 'card provisioning recovery', intervalMs: config.CARDS_PROVISIONING_RECOVERY_MS, logger: environment.logger,
    run: () => provisioning.finishInterrupted(config.CARDS_PROVISIONING_RECOVERY_MS),
  });
  return {
    bindings: [bindCardService({ cards }), bindCardSandboxService({ sandbox })],
    outboxCollections: [cardStore.collection, transactionStore.collection],
    useCases: { cards, provisioning, authorizations },
    async start() {
      await Promise.all([cardStore.port.ensureIndexes(), transactionStore.port.ensureIndexes(), sandboxIssuer.ensureIndexes()]);
      recovery.start();
      decisionRecovery.start();
      expiry.start();
    },
    async stop() {
      await recovery.stop();
      await decisionRecovery.stop();
      await expiry.stop();
    },
  };
}
