import { newEvent as defaultNewEvent, type NewEvent } from '../../../lib/bus/outbox';
import { readConfig, setting } from '../../../lib/config';
import type { ServiceEnvironment } from '../../../lib/runtime/service-module';
import type { RateSource } from '../rates/adapters/rate-source';
import { createAgentActionsModule } from '../agents/agent-actions-module';
import { createAgentsPeerRegistry } from '../agents/adapters/agents-peer-registry';
import type { AgentRegistry } from '../agents/app/agent-approvals';
import { createAccountsUmaDirectory } from './adapters/accounts-uma-directory';
import { createPaymentAccountsPeer } from '../shared/adapters/payment-accounts-peer';
import type { PaymentAccounts } from '../shared/app/payment-accounts';
import { createCreateQuote } from './app/create-quote';
import type { Payment } from './domain/payment';
import type { PlannedChange } from './domain/settlement-plan';
import { createDailyVolume, createDailyVolumeRelease } from './app/daily-volume';
import { createEstimateWithdrawalFee } from './app/estimate-withdrawal-fee';
import { createExchangeRates } from './app/exchange-rates';
import { createExecuteQuote } from './app/execute-quote';
import { createQuoteAuthorization, type ScaGate } from './app/quote-authorization';
import { createAccountsScaGate } from './adapters/accounts-sca-gate';
import type { GetLookup } from '../lookups/app/get-lookup';
import type { SignedLookups } from '../lookups/app/signed-lookups';
import { createLedger } from '../ledger/app/ledger';
import type { PaymentSettingsSource } from '../shared/app/payment-settings';
import { createPlatformConfigSettings } from '../shared/adapters/platform-config-settings';
import { createSandboxPayments } from './app/sandbox-payments';
import {
  createReceiveSameServerPayment,
  createSettleToSameServer,
  type UmaAddressDirectory,
} from './app/same-server-payments';
import { createSettlementWorker } from './app/settlement-worker';
import { createSandboxSettlementRail } from './app/settlement-rail';
import { createReportSettlementOutcome } from './app/report-settlement-outcome';
import { createOperatorSettlementRail } from './adapters/operator-settlement-rail';
import { bindSettlementRailService } from './grpc/settlement-rail-handlers';
import { paysAnUmaAddress, umaReceiverFor } from './domain/same-server-receiver';
import { createStepRunner } from './app/step-runner';
import { createTransactionActions } from './app/transaction-actions';
import { createIncomingPaymentApproval } from './app/incoming-payment-approval';
import { createWebhookEndpointProbe } from './adapters/webhook-endpoint-probe';
import { APPROVAL_ANSWERS_TOPIC } from './domain/incoming-payment-approval';
import type { Subscription } from '../../../lib/bus/event-bus';
import { createTransactionQueries } from './app/transactions-query';
import { createTransfers } from './app/transfers';
import type { WalletAuthorizer } from './app/wallet-authorizer';
import { bindLedgerService } from '../ledger/grpc/ledger-handlers';
import { createLedgerAudit } from '../ledger/app/ledger-audit';
import { createLedgerSnapshotReader } from '../ledger/store/ledger-snapshot-reader';
import { bindQuoteService } from './grpc/quote-handlers';
import { bindPaymentsSandboxService } from './grpc/sandbox-handlers';
import { bindWithdrawalFeeService } from './grpc/withdrawal-fee-handlers';
import { bindTransactionService } from './grpc/transaction-handlers';
import { createTransactionEntries } from './app/transaction-entries';
import { createCardTransactionDocumentStore } from '../cards/store/card-transaction-document-store';
import { createLedgerDocumentStore } from '../ledger/store/ledger-document-store';
import { createPaymentDocumentStore } from './store/payment-document-store';
import { createVolumeDocumentStore } from './store/volume-document-store';

/** Settings read from the environment (all optional; the defaults are the documented sandbox behaviour). */
export function readPaymentsConfig(env: NodeJS.ProcessEnv) {
  return readConfig({
    /** How long a quote can be executed */
    QUOTE_VALIDITY_SECONDS: setting.int(300, 1, 86_400),
    /**
     * What settles payments: `sandbox`, the timer simulator (SANDBOX_SETTLEMENT_STEP_MS), or `operator`, the operator's
     * rail integration (SETTLEMENT.SUBMITTED events out, SettlementRailService.ReportSettlementOutcome in;
     * docs/settlement-rails.md) @default sandbox with GRID_MODE=sandbox, operator with GRID_MODE=production (which
     * refuses sandbox)
     */
    SETTLEMENT_RAIL: setting.providerChoice(['sandbox', 'operator'] as const, {
      sandbox: 'sandbox',
      production: 'operator',
    }, ['sandbox']),
    /** Sandbox rails: time between two settlement stages of a payment (GRID_MODE=production refuses it set) */
    SANDBOX_SETTLEMENT_STEP_MS: setting.sandboxOnly(setting.int(2_000, 0, 3_600_000)),
    /** How often the settlement worker looks for due payments */
    SETTLEMENT_POLL_MS: setting.int(250, 10, 60_000),
    /** A ledger step still pending this long is finished or compensated by the recovery worker */
    LEDGER_RECOVERY_AFTER_MS: setting.int(10_000, 0, 3_600_000),
    /**
     * Serve the /sandbox payment simulations (fund, send, receive); off, they answer 403 FORBIDDEN @default true with
     * GRID_MODE=sandbox, false with GRID_MODE=production (which refuses true)
     */
    SANDBOX_PAYMENTS_ENABLED: setting.sandboxSwitch(),
    /**
     * How long an incoming UMA payment waits for the answer to its incoming-payment webhook before it fails with
     * PAYMENT_APPROVAL_WEBHOOK_ERROR
     */
    INCOMING_APPROVAL_ANSWER_MS: setting.int(30_000, 100, 3_600_000),
    /**
     * After a 202 answer: the time to call POST /transactions/{id}/approve or /reject before PAYMENT_APPROVAL_TIMED_OUT
     * (the reference: 5 seconds)
     */
    INCOMING_APPROVAL_DEFERRED_MS: setting.int(5_000, 100, 3_600_000),
  }, env);
}

export interface PaymentsAdapters {
  rates: RateSource;
  now: () => Date;
  getLookup: GetLookup;
  signedLookups?: SignedLookups;
  accounts?: PaymentAccounts;
  settings?: PaymentSettingsSource;
  wallets?: WalletAuthorizer;
  newEvent?: NewEvent;
  agents?: AgentRegistry;
  /** Whether a platform is asked to approve incoming UMA payments; by default: it has a webhook endpoint. */
  asksApproval?: (platformId: string) => Promise<boolean>;
  umaDirectory?: UmaAddressDirectory;
  sca?: ScaGate;
  /**
   * Runs after the same-server delivery, before a settlement step (UMA between servers: pay or wait for the invoice).
   */
  settlementHold?: (p: Payment, plan: PlannedChange, now: Date) => Promise<PlannedChange>;
  /** Before a quote is stored (UMA between servers: the pay request to the receiver's VASP). */
  beforeQuoteStored?: (p: Payment) => Promise<void>;
}

type SettlementHook = NonNullable<PaymentsAdapters['settlementHold']>;

const withHold = (first: SettlementHook, then?: SettlementHook): SettlementHook =>
  then ? async (p, plan, now) => then(p, await first(p, plan, now), now) : first;

/** Quotes, transactions, the ledger and the sandbox: use cases, their bindings and the settlement worker. */
export function createPaymentsModule(environment: ServiceEnvironment, adapters: PaymentsAdapters) {
  const config = readPaymentsConfig(environment.env);
  const clock = adapters.now;
  const newEvent = adapters.newEvent ?? defaultNewEvent;
  // The operator's rail is handed a payment at the worker's next pass; the step delay is the sandbox simulator's alone.
  const timing = { stepMs: config.SETTLEMENT_RAIL === 'operator' ? 0 : config.SANDBOX_SETTLEMENT_STEP_MS };
  const accounts = adapters.accounts ?? createPaymentAccountsPeer(environment.peers);

  const ledgerStore = createLedgerDocumentStore(environment.store, clock);
  const paymentStore = createPaymentDocumentStore(environment.store);
  const ledger = createLedger({ store: ledgerStore.ledger, newEvent, clock });
  const payments = paymentStore.payments;
  const settings = adapters.settings ?? createPlatformConfigSettings(environment.peers);
  const volumeStore = createVolumeDocumentStore(environment.store);
  const reserveDailyVolume = createDailyVolume({ store: volumeStore, settings, clock });
  const releaseDailyVolume = createDailyVolumeRelease({ store: volumeStore });
  const runner = createStepRunner({ payments, ledger, releaseDailyVolume, newEvent, clock });
  // A test system given its own accounts port has no accounts service to ask about SCA.
  const scaGate = adapters.sca ?? (adapters.accounts ? undefined : createAccountsScaGate(environment.peers));
  const queries = createTransactionQueries({
    payments,
    clock,
    ...(scaGate ? { scaReads: (caller, customerId) => scaGate.requirement(caller, customerId) } : {}),
  });
  const quoteAuthorization = scaGate
    ? createQuoteAuthorization({
      gate: scaGate,
      payments,
      newEvent,
      clock,
      execute: (command) => executeQuote(command),
    })
    : undefined;
  const executeQuote = createExecuteQuote({
    payments,
    runner,
    ledger,
    reserveDailyVolume,
    clock,
    timing,
    wallets: adapters.wallets,
    sca: quoteAuthorization,
  });
  const createQuote = createCreateQuote({
    ...(quoteAuthorization ? { sca: quoteAuthorization } : {}),
    accounts,
    getLookup: adapters.getLookup,
    ...(adapters.signedLookups ? { signedLookups: adapters.signedLookups } : {}),
    rates: adapters.rates,
    settings,
    payments,
    newEvent,
    clock,
    quoteValidityMs: config.QUOTE_VALIDITY_SECONDS * 1000,
    executeQuote,
    ...(adapters.beforeQuoteStored ? { beforeStoring: adapters.beforeQuoteStored } : {}),
    ...(adapters.wallets ? { walletChallenge: adapters.wallets.challenge } : {}),
  });
  const createTransfer = createTransfers({
    accounts,
    ledger,
    payments,
    runner,
    settings,
    reserveDailyVolume,
    rates: adapters.rates,
    newEvent,
    clock,
    timing,
  });
  const approvalWindows = {
    webhookAnswerMs: config.INCOMING_APPROVAL_ANSWER_MS,
    deferredMs: config.INCOMING_APPROVAL_DEFERRED_MS,
  };
  const asksApproval = adapters.asksApproval
    ?? (adapters.accounts ? undefined : createWebhookEndpointProbe(environment.peers));
  const sandbox = createSandboxPayments({
    enabled: config.SANDBOX_PAYMENTS_ENABLED,
    accounts,
    ledger,
    payments,
    runner,
    reserveDailyVolume,
    newEvent,
    clock,
    timing,
    asksApproval,
    approvalWindows,
  });
  const incomingApproval = createIncomingPaymentApproval({
    payments,
    runner,
    clock,
    timing,
    windows: approvalWindows,
    logger: environment.logger,
  });
  let approvalAnswers: Subscription | undefined;
  const actions = createTransactionActions({ queries, runner, clock, timing });
  const listExchangeRates = createExchangeRates({ rates: adapters.rates, settings, clock });
  const entries = createTransactionEntries({
    queries,
    cards: createCardTransactionDocumentStore(environment.store).port,
  });
  const agents = createAgentActionsModule({
    store: environment.store,
    logger: environment.logger,
    recoverAfterMs: config.LEDGER_RECOVERY_AFTER_MS,
    ...(environment.leases ? { leases: environment.leases } : {}),
    payments,
    accounts,
    rates: adapters.rates,
    newEvent,
    clock,
    createQuote,
    executeQuote,
    createTransfer,
    queries,
    entries,
    agents: adapters.agents ?? createAgentsPeerRegistry(environment.peers),
  });
  const umaDirectory = adapters.umaDirectory ?? createAccountsUmaDirectory(environment.peers);
  const receiveSameServerPayment = createReceiveSameServerPayment({
    directory: umaDirectory,
    accounts,
    payments,
    runner,
    clock,
  });
  const rail = config.SETTLEMENT_RAIL === 'operator'
    ? createOperatorSettlementRail({
      timing,
      settlesHere: async (p) =>
        paysAnUmaAddress(p)
        && umaReceiverFor(await umaDirectory.holders(p.destination.umaAddress), p.platformId).kind !== 'OUTSIDE',
    })
    : createSandboxSettlementRail(timing);
  const reportSettlementOutcome = createReportSettlementOutcome({
    payments,
    runner,
    clock,
    timing,
    logger: environment.logger,
  });
  const worker = createSettlementWorker({
    payments,
    runner,
    ledger,
    clock,
    timing,
    rail,
    logger: environment.logger,
    beforeSettling: withHold(
      createSettleToSameServer({ receive: receiveSameServerPayment, timing }),
      adapters.settlementHold,
    ),
    intervalMs: config.SETTLEMENT_POLL_MS,
    recoverAfterMs: config.LEDGER_RECOVERY_AFTER_MS,
    ...(environment.leases ? { lease: environment.leases('settlement') } : {}),
  });

  return {
    bindings: [
      bindLedgerService({
        ledger,
        audit: createLedgerAudit({ source: createLedgerSnapshotReader(environment.store) }),
      }),
      bindQuoteService({ createQuote, executeQuote, queries, createTransfer, listExchangeRates, quoteAuthorization }),
      bindTransactionService({ queries, entries, actions, agentApprovals: agents.approvals }),
      agents.binding,
      bindPaymentsSandboxService({ sandbox }),
      bindSettlementRailService({ reportSettlementOutcome }),
      bindWithdrawalFeeService(createEstimateWithdrawalFee({ accounts, rates: adapters.rates, settings })),
    ],
    outboxCollections: [paymentStore.collection, ledgerStore.collection, agents.outboxCollection],
    settlementRail: rail.name,
    ports: { payments, runner, newEvent, timing, approvalWindows, ...(asksApproval ? { asksApproval } : {}) },
    useCases: {
      reportSettlementOutcome,
      incomingApproval,
      ledger,
      createQuote,
      executeQuote,
      createTransfer,
      queries,
      actions,
      sandbox,
      listExchangeRates,
      receiveSameServerPayment,
    },
    worker,
    async start() {
      await Promise.all([
        ledgerStore.ledger.ensureIndexes(),
        paymentStore.payments.ensureIndexes(),
        volumeStore.ensureIndexes(),
        agents.start(),
      ]);
      approvalAnswers = await environment.bus.subscribe({
        topic: APPROVAL_ANSWERS_TOPIC,
        group: 'payments-approval-answers',
        handler: incomingApproval.onEvent,
      });
      worker.start();
      environment.logger.info('settlement rail', { rail: rail.name });
    },
    stop: async () => {
      await approvalAnswers?.close();
      approvalAnswers = undefined;
      await agents.stop();
      await worker.stop();
    },
  };
}
