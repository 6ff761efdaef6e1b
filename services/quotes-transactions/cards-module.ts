import { newEvent as defaultNewEvent, type NewEvent } from '../../lib/bus/outbox';
import { readConfig, setting } from '../../lib/config';
import { AppError } from '../../lib/errors';
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
    /** Who provisions cards: `sandbox`, the embedded simulator, or `none` (no real issuer is integrated yet: POST /cards answers 501 NOT_IMPLEMENTED and no card is made) @default sandbox with GRID_MODE=sandbox, none with GRID_MODE=production (which refuses sandbox) */
    CARD_ISSUER: setting.providerChoice(['sandbox', 'none'] as const, { sandbox: 'sandbox', production: 'none' }, ['sandbox']),
  }, env);
}

/** Without an issuer no card is issued: refused before anything is stored, so nothing waits on a provisioning that cannot happen. */
function withoutIssuer(cards: CardUseCases): CardUseCases {
  return {
    ...cards,
    issue: async () => { throw new AppError('NOT_IMPLEMENTED', 'Card issuing is not available on this platform: no card issuer is configured'); },
  };
}

/** Cards: issuing and the card lifecycle, with the embedded sandbox issuer unless one is given. */
export function createCardsModule(environment: ServiceEnvironment, adapters: { now: () => Date; ledger: Ledger; newEvent?: NewEvent; cardholders?: Cardholders; issuer?: CardIssuer }) {
  const config = readCardsConfig(environment.env);
  const clock = adapters.now;
  const cardStore = createCardDocumentStore(environment.store);
  const sandboxIssuer = createSandboxCardIssuer({ store: environment.store, sealer: createAesGcmSealer(readSealingKey('CARDS_DATA_KEY', environment.env)), clock });
  // Fail closed: without an issuer, nothing is provisioned from the simulator, not even a card left PROCESSING.
  const noIssuer: CardIssuer = { provision: async () => { throw new Error('no card issuer is configured (CARD_ISSUER=none)'); } };
  const issuer = adapters.issuer ?? (config.CARD_ISSUER === 'sandbox' ? sandboxIssuer : noIssuer);
  let cards: CardUseCases | undefined;
  const provisioning = createCardProvisioning({ store: cardStore.port, issuer, cards: () => cards!, clock, logger: environment.logger });
  const cardholders = adapters.cardholders ?? createCardholdersPeer(environment.peers);
  const newEvent = adapters.newEvent ?? defaultNewEvent;
  cards = createCardUseCases({ store: cardStore.port, cardholders, newEvent, clock, provisionLater: provisioning.provisionLater });
  const issuing = adapters.issuer || config.CARD_ISSUER === 'sandbox' ? cards : withoutIssuer(cards);
  const transactionStore = createCardTransactionDocumentStore(environment.store);
  // The decisioning the issuer port (and the sandbox simulations) call; not served over gRPC yet.
  const authorizations = createCardAuthorizations({
    store: transactionStore.port, ledger: adapters.ledger, newEvent, clock, card: cards.get,
    platformCustomerId: async (caller, customerId) => (await cardholders.read(caller, customerId, [])).platformCustomerId ?? '',
  });
  const payments = readPaymentsConfig(environment.env);
  // The payment simulations' switch: one sandbox setting for both.
  const sandbox = createCardSandbox({ enabled: payments.SANDBOX_PAYMENTS_ENABLED, authorizations });
  const decisionRecovery = createPeriodicTask({
    name: 'card decision recovery', intervalMs: Math.max(1_000, payments.LEDGER_RECOVERY_AFTER_MS), logger: environment.logger,
    run: () => authorizations.finishInterrupted(payments.LEDGER_RECOVERY_AFTER_MS),
  });
  const recovery = createPeriodicTask({
    name: 'card provisioning recovery', intervalMs: config.CARDS_PROVISIONING_RECOVERY_MS, logger: environment.logger,
    run: () => provisioning.finishInterrupted(config.CARDS_PROVISIONING_RECOVERY_MS),
  });
  return {
    bindings: [bindCardService({ cards: issuing }), bindCardSandboxService({ sandbox })],
    outboxCollections: [cardStore.collection, transactionStore.collection],
    useCases: { cards: issuing, provisioning, authorizations },
    async start() {
      if (issuing !== cards) environment.logger.warn('no card issuer configured (CARD_ISSUER=none): POST /cards answers 501 NOT_IMPLEMENTED');
      await Promise.all([cardStore.port.ensureIndexes(), transactionStore.port.ensureIndexes(), sandboxIssuer.ensureIndexes()]);
      recovery.start();
      decisionRecovery.start();
    },
    async stop() {
      await recovery.stop();
      await decisionRecovery.stop();
    },
  };
}
