import { newEvent as defaultNewEvent, type NewEvent } from '../../../lib/bus/outbox';
import { ConfigError, readConfig, setting } from '../../../lib/config';
import { AppError } from '../../../lib/errors';
import { createPeriodicTask } from '../../../lib/runtime/periodic-task';
import type { ServiceEnvironment } from '../../../lib/runtime/service-module';
import { createAesGcmSealer, readSealingKey } from '../../../lib/sealing/aes-gcm-sealer';
import { createCardholdersPeer } from './adapters/cardholders-peer';
import { createSandboxCardIssuer } from './adapters/sandbox-card-issuer';
import type { CardIssuer, Cardholders } from './app/card-ports';
import { createCardProvisioning } from './app/card-provisioning';
import { createCardUseCases, type CardUseCases } from './app/card-use-cases';
import { createCardAuthorizations } from './app/card-authorizations';
import type { Ledger } from '../ledger/app/ledger';
import { createCardTransactionDocumentStore } from './store/card-transaction-document-store';
import { bindCardService } from './grpc/card-handlers';
import { bindCardSandboxService } from './grpc/card-sandbox-handlers';
import { createCardSandbox } from './app/card-sandbox';
import { createCardReveals } from './app/card-reveals';
import { revealSigningKey } from './app/reveal-token';
import { bindCardRevealService } from './grpc/card-reveal-handlers';
import { createCardRevealDocumentStore } from './store/card-reveal-document-store';
import { readPaymentsConfig } from '../payments/payments-module';
import { createCardDocumentStore } from './store/card-document-store';
import { createDelegatedKeyCustody } from '../delegated-keys/adapters/delegated-key-custody';
import { createSignedRetryWalletSignatures } from '../delegated-keys/adapters/signed-retry-wallet-signatures';
import { createDelegatedKeys } from '../delegated-keys/app/delegated-keys';
import { bindDelegatedKeyService } from '../delegated-keys/grpc/delegated-key-handlers';
import { createDelegatedKeyDocumentStore } from '../delegated-keys/store/delegated-key-document-store';

export function readCardsConfig(env: NodeJS.ProcessEnv) {
  return readConfig({
    /**
     * A card still PROCESSING this long (its provisioning was interrupted) is provisioned again by the recovery task
     */
    CARDS_PROVISIONING_RECOVERY_MS: setting.int(5_000, 100, 3_600_000),
    /** How long a card reveal URL (POST /cards/{id}/reveal) loads; it opens once */
    CARDS_REVEAL_TTL_MS: setting.int(90_000, 10_000, 120_000),
    /**
     * Public address of the gateway serving the card reveal page (`<base>/card-reveal/<token>`); default
     * http://localhost:$PORT
     */
    CARDS_REVEAL_BASE_URL: setting.optionalUrl('https:', 'http:'),
    /** Comma-separated origins allowed to frame the card reveal page (CSP frame-ancestors); empty: none may */
    CARDS_REVEAL_FRAME_ANCESTORS: setting.string(''),
    /**
     * An approved card authorization not cleared this long after it was approved expires: its hold goes back to the
     * funding source (default 7 days, as card networks commonly let holds lapse)
     */
    CARDS_AUTHORIZATION_EXPIRY_MS: setting.int(7 * 24 * 3_600_000, 1_000, 90 * 24 * 3_600_000),
    /** How often the card authorization worker looks for stale holds and due sandbox pull confirmations */
    CARDS_EXPIRY_POLL_MS: setting.int(60_000, 50, 3_600_000),
    /** Cards not CLOSED one customer may hold; one more POST /cards answers 409 */
    CARDS_MAX_OPEN_PER_CUSTOMER: setting.int(50, 1, 10_000),
    /**
     * Unsigned first legs of POST /auth/delegated-keys (keys left CREATING, purged after a day) one platform may begin
     * per hour; beyond: 429
     */
    DELEGATED_KEYS_MAX_UNSIGNED_PER_PLATFORM_PER_HOUR: setting.int(1_000, 1, 1_000_000),
    /** Sandbox: how long a pull simulated with the descriptor suffix 005 stays pending before the issuer confirms it */
    CARDS_SANDBOX_PULL_CONFIRM_MS: setting.sandboxOnly(setting.int(30_000, 0, 3_600_000)),
    /**
     * Who provisions cards: `sandbox`, the embedded simulator, or `none` (no real issuer is integrated yet: POST /cards
     * answers 501 NOT_IMPLEMENTED and no card is made) @default sandbox with GRID_MODE=sandbox, none with
     * GRID_MODE=production (which refuses sandbox)
     */
    CARD_ISSUER: setting.providerChoice(['sandbox', 'none'] as const, { sandbox: 'sandbox', production: 'none' }, [
      'sandbox',
    ]),
  }, env);
}

/** CARDS_REVEAL_FRAME_ANCESTORS as origins (each exactly an http(s) origin, so nothing else reaches the CSP header). */
export function frameAncestorsOf(value: string): string[] {
  return value.split(',').map((o) => o.trim()).filter(Boolean).map((origin) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch { /* refused below */ }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(
        'CARDS_REVEAL_FRAME_ANCESTORS',
        `"${origin}" is not an http(s) origin (scheme://host[:port], no path)`,
      );
    }
    return origin;
  });
}

/**
 * Without an issuer no card is issued: refused before anything is stored, so nothing waits on a provisioning that
 * cannot happen.
 */
function withoutIssuer(cards: CardUseCases): CardUseCases {
  return {
    ...cards,
    issue: async () => {
      throw new AppError(
        'NOT_IMPLEMENTED',
        'Card issuing is not available on this platform: no card issuer is configured',
      );
    },
  };
}

/** Cards: issuing and the card lifecycle, with the embedded sandbox issuer unless one is given. */
export function createCardsModule(
  environment: ServiceEnvironment,
  adapters: { now: () => Date; ledger: Ledger; newEvent?: NewEvent; cardholders?: Cardholders; issuer?: CardIssuer },
) {
  const config = readCardsConfig(environment.env);
  const clock = adapters.now;
  const cardStore = createCardDocumentStore(environment.store);
  const cardDataKey = readSealingKey('CARDS_DATA_KEY', environment.env);
  const sealer = createAesGcmSealer(cardDataKey);
  const sandboxIssuer = createSandboxCardIssuer({ store: environment.store, sealer, clock });
  // Fail closed: without an issuer, nothing is provisioned from the simulator, not even a card left PROCESSING.
  const noIssuer: CardIssuer = {
    provision: async () => {
      throw new Error('no card issuer is configured (CARD_ISSUER=none)');
    },
  };
  const sandboxIssuing = !adapters.issuer && config.CARD_ISSUER === 'sandbox';
  const issuer = adapters.issuer ?? (sandboxIssuing ? sandboxIssuer : noIssuer);
  let cards: CardUseCases | undefined;
  const provisioning = createCardProvisioning({
    store: cardStore.port,
    issuer,
    cards: () => cards!,
    clock,
    logger: environment.logger,
  });
  const cardholders = adapters.cardholders ?? createCardholdersPeer(environment.peers);
  const newEvent = adapters.newEvent ?? defaultNewEvent;
  const transactionStore = createCardTransactionDocumentStore(environment.store);
  const delegatedKeyStore = createDelegatedKeyDocumentStore(environment.store);
  const delegatedKeys = createDelegatedKeys({
    store: delegatedKeyStore,
    custody: createDelegatedKeyCustody(sealer),
    signatures: createSignedRetryWalletSignatures(environment.peers),
    clock,
    card: (caller, id) => cards!.get(caller, id),
    maxUnsignedPerPlatformPerHour: config.DELEGATED_KEYS_MAX_UNSIGNED_PER_PLATFORM_PER_HOUR,
  });
  // A card change that unbinds a wallet revokes its delegated key.
  cards = createCardUseCases({
    store: cardStore.port,
    cardholders,
    newEvent,
    clock,
    provisionLater: provisioning.provisionLater,
    bindingsChanged: delegatedKeys.revokeUnbound,
    maxOpenCardsPerCustomer: config.CARDS_MAX_OPEN_PER_CUSTOMER,
  });
  const issuing = adapters.issuer || sandboxIssuing ? cards : withoutIssuer(cards);
  // The decisioning the issuer port (and the sandbox simulations) call; not served over gRPC yet.
  const authorizations = createCardAuthorizations({
    store: transactionStore.port,
    ledger: adapters.ledger,
    newEvent,
    clock,
    card: cards.get,
    platformCustomerId: async (caller, customerId) =>
      (await cardholders.read(caller, customerId, [])).platformCustomerId ?? '',
    delegation: delegatedKeys.refusal,
  });
  const payments = readPaymentsConfig(environment.env);
  // The payment simulations' switch: one sandbox setting for both.
  const sandbox = createCardSandbox({
    enabled: payments.SANDBOX_PAYMENTS_ENABLED,
    authorizations,
    clock,
    pullConfirmDelayMs: config.CARDS_SANDBOX_PULL_CONFIRM_MS,
  });
  const revealStore = createCardRevealDocumentStore(environment.store);
  // The embedded processor serves the reveal page; an issuer given from outside serves its own (not wired: 501).
  const reveals = createCardReveals({
    card: cards.get,
    store: revealStore,
    key: revealSigningKey(cardDataKey),
    clock,
    logger: environment.logger,
    ...(sandboxIssuing ? { cardData: sandboxIssuer } : {}),
    // A test system given its own cardholders has no accounts service to ask about SCA.
    ...(adapters.cardholders ? {} : {
      scaAllows: async (caller: { platformId: string; correlationId?: string }, customerId: string) => {
        const { scaCustomer, sessionLive } = await environment.peers.sca.getScaRequirement({ customerId }, caller);
        return !scaCustomer || sessionLive;
      },
    }),
    settings: {
      ttlMs: config.CARDS_REVEAL_TTL_MS,
      frameAncestors: frameAncestorsOf(config.CARDS_REVEAL_FRAME_ANCESTORS),
      pageBaseUrl: config.CARDS_REVEAL_BASE_URL ?? `http://localhost:${environment.env.PORT ?? 8080}`,
    },
  });
  // One replica at a time expires stale holds; each expiry is a conditional, serialized event anyway.
  const expiry = createPeriodicTask({
    name: 'card authorization expiry',
    intervalMs: config.CARDS_EXPIRY_POLL_MS,
    logger: environment.logger,
    run: () => authorizations.expireStale(config.CARDS_AUTHORIZATION_EXPIRY_MS),
    ...(environment.leases ? { lease: environment.leases('card-authorization-expiry') } : {}),
  });
  const decisionRecovery = createPeriodicTask({
    name: 'card decision recovery',
    intervalMs: Math.max(1_000, payments.LEDGER_RECOVERY_AFTER_MS),
    logger: environment.logger,
    run: () => authorizations.finishInterrupted(payments.LEDGER_RECOVERY_AFTER_MS),
  });
  const recovery = createPeriodicTask({
    name: 'card provisioning recovery',
    intervalMs: config.CARDS_PROVISIONING_RECOVERY_MS,
    logger: environment.logger,
    run: () => provisioning.finishInterrupted(config.CARDS_PROVISIONING_RECOVERY_MS),
  });
  // Unsigned first legs leave CREATING keys behind; their challenges expired long before a day.
  const abandonedKeys = createPeriodicTask({
    name: 'abandoned delegated key purge',
    intervalMs: 600_000,
    logger: environment.logger,
    run: () => delegatedKeys.purgeAbandoned(86_400_000),
  });
  // The repair of a crash between a card change and its key revocation (bindingsChanged); one replica at a time.
  const unboundKeys = createPeriodicTask({
    name: 'unbound delegated key revocation',
    intervalMs: 60_000,
    logger: environment.logger,
    run: () => delegatedKeys.revokeStale(),
    ...(environment.leases ? { lease: environment.leases('delegated-key-unbound-revocation') } : {}),
  });
  return {
    bindings: [
      bindCardService({ cards: issuing }),
      bindCardSandboxService({ sandbox }),
      bindDelegatedKeyService(delegatedKeys),
      bindCardRevealService(reveals),
    ],
    outboxCollections: [cardStore.collection, transactionStore.collection],
    useCases: { cards: issuing, provisioning, authorizations, delegatedKeys },
    async start() {
      if (issuing !== cards) {
        environment.logger.warn(
          'no card issuer configured (CARD_ISSUER=none): POST /cards answers 501 NOT_IMPLEMENTED',
        );
      }
      await Promise.all([
        cardStore.port.ensureIndexes(),
        transactionStore.port.ensureIndexes(),
        sandboxIssuer.ensureIndexes(),
        delegatedKeyStore.ensureIndexes(),
        revealStore.ensureIndexes(),
      ]);
      recovery.start();
      decisionRecovery.start();
      abandonedKeys.start();
      unboundKeys.start();
      expiry.start();
    },
    async stop() {
      await recovery.stop();
      await decisionRecovery.stop();
      await abandonedKeys.stop();
      await unboundKeys.stop();
      await expiry.stop();
    },
  };
}
