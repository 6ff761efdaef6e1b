import type { ServiceEnvironment } from '../../lib/runtime/service-module';
import { createDeliveryMessageSender } from './adapters/wallet-auth/delivery-message-sender';
import { createEmbeddedWalletProvider } from './adapters/wallet-auth/embedded-wallet-provider';
import { createPlatformSettingsSource } from './adapters/wallet-auth/platform-settings-source';
import { createCredentialChallenge } from './app/wallet-auth/credential-challenge';
import { createCredentialRegistration } from './app/wallet-auth/credential-registration';
import { createCredentials } from './app/wallet-auth/credentials';
import { createCredentialVerify } from './app/wallet-auth/credential-verify';
import { createExternalSignedRetry } from './app/wallet-auth/external-signed-retry';
import { createKeyedLock } from '../../lib/keyed-lock';
import { createOperationRunner } from './app/wallet-auth/operation-runner';
import { createOtpIssuer } from './app/wallet-auth/otp-issuer';
import { createPasskeyAssertionCheck } from './app/wallet-auth/passkey-assertion-check';
import { createReconciler } from './app/wallet-auth/reconciler';
import { createSessions } from './app/wallet-auth/sessions';
import { createSignedFlow } from './app/wallet-auth/signed-flow';
import { createSignedRetry } from './app/wallet-auth/signed-retry';
import { createWalletActions } from './app/wallet-auth/wallet-actions';
import type { WalletProvider } from './app/wallet-auth/wallet-provider';
import { createWalletExecutors } from './app/wallet-auth/wallet-executors';
import { createWalletProvisioning } from './app/wallet-auth/wallet-provisioning';
import { createOidcVerifier } from './domain/oidc/create-oidc-verifier';
import { createCredentialDocumentStore } from './store/wallet-auth/credential-document-store';
import { createSessionDocumentStore } from './store/wallet-auth/session-document-store';
import { createSignedRetryDocumentStore } from './store/wallet-auth/signed-retry-document-store';
import { createWalletDocumentStore } from './store/wallet-auth/wallet-document-store';
import { readWalletAuthConfig } from './wallet-auth-config';

/** Wires embedded-wallet authentication: stores, wallet provider, signed retry, use cases, reconciler. */
export interface WalletAuthOptions {
  /** Another wallet provider adapter, given the embedded one (tests wrap it). */
  provider?: (embedded: WalletProvider) => WalletProvider;
  now?: () => Date;
}

export function createWalletAuth(environment: ServiceEnvironment, options: WalletAuthOptions = {}) {
  const { store, logger, peers, env } = environment;
  const config = readWalletAuthConfig(env);
  const now = options.now ?? (() => new Date());
  const signedRetries = createSignedRetryDocumentStore(store);
  const credentials = createCredentialDocumentStore(store);
  const sessions = createSessionDocumentStore(store);
  const wallets = createWalletDocumentStore(store);
  const embedded = createEmbeddedWalletProvider({
    store,
    settleMs: config.settleMs,
    storageKey: config.storageKey,
    enclavePrivateKey: config.enclavePrivateKey,
    now,
  });
  const provider = options.provider ? options.provider(embedded) : embedded;
  const platforms = createPlatformSettingsSource({
    peers,
    logger,
    defaults: { sandbox: config.sandbox, oidc: config.oidc, passkey: config.passkey },
  });
  const settings = {
    enclavePrivateKey: config.enclavePrivateKey,
    storageKey: config.storageKey,
    sessionTtlMs: config.sessionTtlMs,
    otpReissueIntervalMs: config.otpReissueIntervalMs,
  };
  const otp = createOtpIssuer({ credentials, platforms, sender: createDeliveryMessageSender(peers), settings, now });
  const lock = createKeyedLock();
  const executors = createWalletExecutors({
    credentials,
    sessions,
    wallets,
    otp,
    provider,
    sessionTtlMs: config.sessionTtlMs,
    now,
  });
  const runner = createOperationRunner({ store: signedRetries, provider, executors, lock, now, logger });
  const signedRetry = createSignedRetry({
    store: signedRetries,
    sessions,
    lock,
    ttlMs: config.signedRetryTtlMs,
    now,
    maxPending: config.pendingSignedRetries,
    checkAssertion: createPasskeyAssertionCheck({ credentials, platforms }),
  });
  const flow = createSignedFlow({ signedRetry, runner });
  const oidc = createOidcVerifier();
  const reconciler = createReconciler({
    runner,
    intervalMs: config.reconcileIntervalMs,
    logger,
    ...(environment.leases ? { lease: environment.leases('wallet operation reconciliation') } : {}),
    purge: () =>
      signedRetries.purge({
        // A minute's grace past expiry: a retry racing the deadline still finds its challenge and is told it expired.
        unusedBefore: new Date(now().getTime() - 60_000),
        settledBefore: new Date(now().getTime() - config.signedRetryRetentionMs),
      }),
  });

  return {
    enclavePublicKey: config.enclavePublicKey,
    credentials: createCredentials({
      credentials,
      wallets,
      flow,
      registration: createCredentialRegistration({ credentials, platforms, oidc, now }),
    }),
    challenge: createCredentialChallenge({ credentials, otp, signedRetry }),
    verify: createCredentialVerify({
      credentials,
      otp,
      flow,
      platforms,
      oidc,
      otpReissueIntervalMs: config.otpReissueIntervalMs,
      now,
    }),
    sessions: createSessions({ sessions, flow, now }),
    wallet: createWalletActions({ wallets, flow }),
    provisioning: createWalletProvisioning({ credentials, wallets, provider, now }),
    external: createExternalSignedRetry({
      signedRetry,
      store: signedRetries,
      internalOperations: Object.keys(executors),
      now,
    }),
    runner,
    async ensureIndexes() {
      await Promise.all([signedRetries.ensureIndexes(), credentials.ensureIndexes(), sessions.ensureIndexes()]);
    },
    async start() {
      await this.ensureIndexes();
      logger.info('embedded-wallet enclave key', {
        enclaveQuorumPublic: config.enclavePublicKey,
        ...(config.generatedKeys
          ? { note: 'generated at start: set WALLET_ENCLAVE_PRIVATE_KEY and WALLET_STORAGE_KEY to keep them' }
          : {}),
      });
      reconciler.start();
    },
    stop: () => reconciler.stop(),
  };
}

export type WalletAuth = ReturnType<typeof createWalletAuth>;
