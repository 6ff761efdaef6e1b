import { randomUUID } from 'node:crypto';
import { createInProcessEventBus } from '../../../../lib/bus/in-process-event-bus';
import { silentLogger } from '../../../../lib/log';
import type { PeerClients } from '../../../../lib/runtime/peer-clients';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { createWalletAuth } from '../../wallet-auth-module';
import { ApiKeyStamper, turnkeyCrypto, type TurnkeyKeyPair } from '../../domain/wallet-crypto/turnkey-client.fixture';
import type { ProviderAnswer, WalletOperation, WalletProvider } from './wallet-provider';

export const PLATFORM = 'Platform:00000000-0000-4000-8000-0000000000aa';

/** A wallet provider the test drives: counts submissions, settles when told, fails on demand. */
export function createScriptedProvider(inner: WalletProvider) {
  const submissions: WalletOperation[] = [];
  let mode: 'settle' | 'pending' | 'fail' = 'settle';
  const provider: WalletProvider = {
    async submit(operation): Promise<ProviderAnswer> {
      submissions.push(operation);
      if (mode === 'pending') return { status: 'PENDING' };
      if (mode === 'fail') return { status: 'FAILED', reason: 'scripted' };
      return inner.submit(operation);
    },
  };
  return { provider, submissions, setMode: (next: typeof mode) => (mode = next) };
}

/** The wallet-auth module on an embedded store, with peers that send nothing (sandbox defaults). */
export interface TestOptions {
  env?: NodeJS.ProcessEnv;
  provider?: (inner: WalletProvider) => WalletProvider;
  now?: () => Date;
  /** What the accounts service answers for the platform (default: unavailable, so the defaults apply). */
  platform?: Record<string, unknown>;
  /** The delivery service fails. */
  deliveryDown?: boolean;
}

export async function createWalletAuthForTest(options: TestOptions = {}) {
  const sent: Array<{ channel: string; to: string; subject: string; body: string; idempotencyKey: string }> = [];
  const peers = {
    accounts: {
      getPlatform:
        async () => (options.platform
          ? { platform: options.platform }
          : Promise.reject(new Error('no accounts service in this test'))),
    },
    delivery: {
      sendMessage: async (message: (typeof sent)[number]) => {
        if (options.deliveryDown) throw new Error('delivery down');
        sent.push(message);
        return { messageId: 'Message:1' };
      },
    },
  } as unknown as PeerClients;
  const store = createEmbeddedDocumentStore();
  const environment = {
    store,
    bus: createInProcessEventBus(),
    logger: silentLogger,
    peers,
    env: { WALLET_OTP_REISSUE_INTERVAL_MS: '0', ...options.env },
  };
  const auth = createWalletAuth(environment, { now: options.now, provider: options.provider });
  await auth.ensureIndexes();
  return { auth, store, sent };
}

type WalletAuth = ReturnType<typeof createWalletAuth>;

export async function stampWith(key: TurnkeyKeyPair, payload: string): Promise<string> {
  return (await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(payload))
    .stampHeaderValue;
}

/** Sandbox OTP sign-in through the use cases, with the real Turnkey client libraries. */
export async function signInOtp(auth: WalletAuth, credentialId: string, type = 'EMAIL_OTP') {
  const challenge = await auth.challenge.challenge(PLATFORM, credentialId, {});
  if (challenge.kind !== 'authMethod') throw new Error('expected an OTP challenge');
  const key = turnkeyCrypto.generateP256KeyPair();
  const body = {
    type,
    encryptedOtpBundle: await turnkeyCrypto.encryptOtpCodeToBundle(
      '000000',
      challenge.authMethod.otpEncryptionTargetBundle!,
      key.publicKeyUncompressed,
      auth.enclavePublicKey,
    ),
  };
  const first = await auth.verify.verify(PLATFORM, credentialId, body, undefined);
  if (first.kind !== 'challenge') throw new Error('expected the signed-retry challenge');
  const signature = {
    stamp: await stampWith(key, first.challenge.payloadToSign),
    requestId: first.challenge.requestId,
  };
  const done = await auth.verify.verify(PLATFORM, credentialId, body, signature);
  if (done.kind !== 'result') throw new Error(`expected a session, got ${done.kind}`);
  return { key, session: done.result.session as { id: string } };
}

/** Provisions a wallet and signs in with the sandbox email code through the use cases. */
export async function walletWithSession(
  auth: WalletAuth,
  options: { email?: string; accountId?: string; phone?: string } = {},
) {
  const accountId = options.accountId ?? `InternalAccount:${randomUUID()}`;
  const email = options.email ?? `u-${randomUUID().slice(0, 8)}@example.com`;
  const { emailOtpCredential } = await auth.provisioning.provision({
    accountId,
    platformId: PLATFORM,
    customerEmail: email,
    customerPhone: options.phone,
  });
  const credentialId = emailOtpCredential!.id;
  return { accountId, email, credentialId, ...(await signInOtp(auth, credentialId)) };
}

/** Both steps of a signed-retry use case, stamped with `key`. */
export async function signed<T extends { kind: string }>(
  key: TurnkeyKeyPair,
  call: (signature?: { stamp: string; requestId: string }) => Promise<T>,
): Promise<T> {
  const first = (await call()) as unknown as { kind: string; challenge: { payloadToSign: string; requestId: string } };
  if (first.kind !== 'challenge') throw new Error(`expected a challenge, got ${first.kind}`);
  return call({ stamp: await stampWith(key, first.challenge.payloadToSign), requestId: first.challenge.requestId });
}
