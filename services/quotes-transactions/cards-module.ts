import { newEvent as defaultNewEvent, type NewEvent } from '../../lib/bus/outbox';
import { readConfig, setting } from '../../lib/config';
import { createPeriodicTask } from '../../lib/runtime/periodic-task';
import type { ServiceEnvironment } from '../../lib/runtime/service-module';
import { createCardDataSealer, readCardDataKey } from './adapters/card-data-sealer';
import { createCardholdersPeer } from './adapters/cardholders-peer';
import { createSandboxCardIssuer } from './adapters/sandbox-card-issuer';
import type { CardIssuer, Cardholders } from './app/cards/card-ports';
import { createCardProvisioning } from './app/cards/card-provisioning';
import { createCardUseCases, type CardUseCases } from './app/cards/card-use-cases';
import { bindCardService } from './grpc/card-handlers';
import { createCardDocumentStore } from './store/card-document-store';

export function readCardsConfig(env: NodeJS.ProcessEnv) {
  return readConfig({
    /** A card still PROCESSING this long (its provisioning was interrupted) is provisioned again by the recovery task */
    CARDS_PROVISIONING_RECOVERY_MS: setting.int(5_000, 100, 3_600_000),
  }, env);
}

/** Cards: issuing and the card lifecycle, with the embedded sandbox issuer unless one is given. */
export function createCardsModule(environment: ServiceEnvironment, adapters: { now: () => Date; newEvent?: NewEvent; cardholders?: Cardholders; issuer?: CardIssuer }) {
  const config = readCardsConfig(environment.env);
  const clock = adapters.now;
  const cardStore = createCardDocumentStore(environment.store);
  const sandboxIssuer = createSandboxCardIssuer({ store: environment.store, sealer: createCardDataSealer(readCardDataKey(environment.env)), clock });
  const issuer = adapters.issuer ?? sandboxIssuer;
  let cards: CardUseCases | undefined;
  const provisioning = createCardProvisioning({ store: cardStore.port, issuer, cards: () => cards!, clock, logger: environment.logger });
  cards = createCardUseCases({
    store: cardStore.port, cardholders: adapters.cardholders ?? createCardholdersPeer(environment.peers),
    newEvent: adapters.newEvent ?? defaultNewEvent, clock, provisionLater: provisioning.provisionLater,
  });
  const recovery = createPeriodicTask({
    name: 'card provisioning recovery', intervalMs: config.CARDS_PROVISIONING_RECOVERY_MS, logger: environment.logger,
    run: () => provisioning.finishInterrupted(config.CARDS_PROVISIONING_RECOVERY_MS),
  });
  return {
    binding: bindCardService({ cards }),
    outboxCollection: cardStore.collection,
    useCases: { cards, provisioning },
    async start() {
      await Promise.all([cardStore.port.ensureIndexes(), sandboxIssuer.ensureIndexes()]);
      recovery.start();
    },
    stop: () => recovery.stop(),
  };
}
