import { ErrorCode, UmaError } from '@uma-sdk/core';
import type { NewEvent } from '../../../lib/bus/outbox';
import { readConfig, setting } from '../../../lib/config';
import type { ServiceEnvironment } from '../../../lib/runtime/service-module';
import type { RateSource } from '../rates/adapters/rate-source';
import type { PaymentStore } from '../payments/app/payment-store';
import type { UmaAddressDirectory } from '../payments/app/same-server-payments';
import type { StepRunner } from '../payments/app/step-runner';
import type { ApprovalWindows } from '../payments/domain/incoming-payment-approval';
import type { SettlementTiming } from '../payments/domain/settlement-plan';
import { createDocumentNonceValidator } from './adapters/document-nonce-validator';
import { createSandboxLightningNode } from './adapters/sandbox-lightning-node';
import { createLndNode, readLndSettings } from './adapters/lnd-node';
import { readUmaIdentity } from './adapters/uma-identity';
import { createPlatformPayerData } from './adapters/platform-payer-data';
import { createUmaRecordDocumentStore } from './adapters/uma-record-document-store';
import { createVaspPublicKeys, type VaspPublicKeys } from './adapters/vasp-public-keys';
import { createAnswerLnurlp } from './app/answer-lnurlp';
import { createAnswerPayRequest } from './app/answer-pay-request';
import { createAnswerPostTransaction } from './app/answer-post-transaction';
import { createIncomingUmaPayments } from './app/incoming-uma-payments';
import type { LightningNode } from './app/lightning-node';
import { createUmaSettlement } from './app/uma-settlement-hold';
import { createUmaSender } from './app/uma-sender';
import type { PaymentAccounts } from '../shared/app/payment-accounts';
import type { UmaCounterparty } from '../lookups/app/lookup-uma';
import { isPlainHttpDomain } from './adapters/vasp-public-keys';
import { vaspDomainOf } from './domain/uma-receiver';
import type { Payment } from '../payments/domain/payment';
import { umaReceiverFor } from '../payments/domain/same-server-receiver';
import { DEFAULT_REPLAY_WINDOW } from './domain/replay-window';
import { bindUmaProtocolService } from './grpc/uma-protocol-handlers';

/** What the UMA module uses of the payments module. */
export interface UmaPaymentPorts {
  payments: PaymentStore;
  runner: StepRunner;
  newEvent: NewEvent;
  timing: SettlementTiming;
  approvalWindows: ApprovalWindows;
  asksApproval?: (platformId: string) => Promise<boolean>;
}

export interface UmaModuleDeps {
  directory: UmaAddressDirectory;
  rates: RateSource;
  clock: () => Date;
  payments: UmaPaymentPorts;
  accounts: Pick<PaymentAccounts, 'customer'>;
  /** The counterparty of addresses the UMA network does not serve (the sandbox simulator's magic names). */
  simulated: UmaCounterparty;
  /** Other VASPs' keys, when a test gives its own fetcher. */
  keys?: VaspPublicKeys;
  lightning?: LightningNode;
}

function readUmaSettings(env: NodeJS.ProcessEnv) {
  return readConfig({
    /** How long the invoice we answer an UMA pay request with can be paid; unpaid, the incoming payment fails */
    UMA_INVOICE_EXPIRY_SECONDS: setting.int(600, 10, 86_400),
    /**
     * How long a payment to another VASP may take to be paid and (in the sandbox) reported to it before it is refunded
     */
    UMA_PAYMENT_GIVE_UP_SECONDS: setting.int(600, 1, 86_400),
    /** The most we pay in Lightning routing fees for one UMA payment, in millisatoshis */
    UMA_MAX_ROUTING_FEE_MSATS: setting.int(10_000, 0, 100_000_000),
    /**
     * How long a pay request from another VASP waits for the receiving platform's approval (the incoming-payment
     * webhook) before the payment fails; below the gateway's 10 s call deadline
     */
    UMA_APPROVAL_WAIT_MS: setting.int(8_000, 100, 9_000),
    /** How often an approved incoming UMA payment looks whether its invoice was paid */
    UMA_SETTLEMENT_POLL_MS: setting.int(1_000, 10, 60_000),
    /**
     * The Lightning node settling UMA payments: `sandbox`, the embedded simulator; `lnd`, an LND node (LND_* settings)
     * @default sandbox with GRID_MODE=sandbox, lnd with GRID_MODE=production (which refuses sandbox)
     */
    LIGHTNING_NODE: setting.providerChoice(['sandbox', 'lnd'] as const, { sandbox: 'sandbox', production: 'lnd' }, [
      'sandbox',
    ]),
  }, env);
}

/**
 * UMA between servers: our identity as a VASP and the protocol's endpoints on the receiving side.
 * Off (every endpoint USER_NOT_FOUND-free NOT_IMPLEMENTED) in production without UMA_DOMAIN.
 */
export function createUmaModule(environment: ServiceEnvironment, deps: UmaModuleDeps) {
  const identity = readUmaIdentity(environment.env);
  const unavailable = async (): Promise<never> => {
    throw new UmaError('this server is not an UMA VASP (no UMA_DOMAIN)', ErrorCode.NOT_IMPLEMENTED);
  };
  if (!identity) {
    return {
      identity,
      binding: bindUmaProtocolService({
        publicKeys: unavailable,
        lnurlp: unavailable,
        payRequest: unavailable,
        postTransaction: unavailable,
      }, environment.logger),
      settlementHold: undefined,
      counterparty: deps.simulated,
      quoteUma: async () => {},
      start: async () => {},
    };
  }
  const settings = readUmaSettings(environment.env);
  const lightning = deps.lightning
    ?? (settings.LIGHTNING_NODE === 'lnd'
      ? createLndNode(readLndSettings(environment.env))
      : createSandboxLightningNode(environment.store, deps.clock));
  const nonces = createDocumentNonceValidator(environment.store, { window: DEFAULT_REPLAY_WINDOW, clock: deps.clock });
  const keys = deps.keys ?? createVaspPublicKeys({ sandbox: identity.sandbox, clock: deps.clock });
  const records = createUmaRecordDocumentStore(environment.store);
  const receiving = {
    identity,
    directory: deps.directory,
    keys,
    nonces: nonces.validator,
    rates: deps.rates,
    platformPayerData: createPlatformPayerData(environment.peers),
  };
  const incoming = createIncomingUmaPayments({
    payments: deps.payments.payments,
    runner: deps.payments.runner,
    newEvent: deps.payments.newEvent,
    clock: deps.clock,
    timing: deps.payments.timing,
    windows: deps.payments.approvalWindows,
    asksApproval: deps.payments.asksApproval,
    decisionWaitMs: settings.UMA_APPROVAL_WAIT_MS,
  });

  const sender = createUmaSender({
    identity,
    keys,
    nonces: nonces.validator,
    records,
    accounts: deps.accounts,
    clock: deps.clock,
    giveUpAfterMs: settings.UMA_PAYMENT_GIVE_UP_SECONDS * 1000,
  });
  // In the sandbox only localhost VASPs (another instance on this machine) are reached; other domains are the
  // simulator's.
  const overTheNetwork = (address: string) => {
    const domain = vaspDomainOf(address);
    return !!domain && !sender.isOurs(address) && (!identity.sandbox || isPlainHttpDomain(domain));
  };
  const counterparty: UmaCounterparty = {
    lookupUma: (
      request,
    ) => (overTheNetwork(request.receiverUmaAddress)
      ? sender.lookupUma(request.receiverUmaAddress)
      : deps.simulated.lookupUma(request)),
  };

  return {
    identity,
    counterparty,
    /** Before a quote is stored: a quote to another VASP's address sends its pay request (which fixes the invoice). */
    async quoteUma(p: Payment): Promise<void> {
      if (p.destination.destinationType !== 'UMA_ADDRESS' || !overTheNetwork(p.destination.umaAddress)) return;
      // A holder on this server receives it here (same-server-payments.ts), whatever its domain.
      if (umaReceiverFor(await deps.directory.holders(p.destination.umaAddress), p.platformId).kind !== 'OUTSIDE') {
        return;
      }
      await sender.quoteUma(p);
    },
    binding: bindUmaProtocolService({
      publicKeys: async () => identity.publicKeysJson,
      lnurlp: createAnswerLnurlp(receiving),
      payRequest: createAnswerPayRequest({
        ...receiving,
        lightning,
        records,
        incoming,
        invoiceExpirySeconds: settings.UMA_INVOICE_EXPIRY_SECONDS,
      }),
      postTransaction: createAnswerPostTransaction({ identity, keys, nonces: nonces.validator, lightning, records }),
    }, environment.logger),
    settlementHold: createUmaSettlement({
      records,
      lightning,
      sender,
      timing: deps.payments.timing,
      pollMs: settings.UMA_SETTLEMENT_POLL_MS,
      maxFeeMsats: settings.UMA_MAX_ROUTING_FEE_MSATS,
    }),
    async start() {
      await Promise.all([nonces.ensureIndexes(), records.ensureIndexes()]);
    },
  };
}
