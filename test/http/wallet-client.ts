import { randomUUID } from 'node:crypto';
import {
  ApiKeyStamper,
  turnkeyCrypto,
  type TurnkeyKeyPair,
} from '../../services/auth/domain/wallet-crypto/turnkey-client.fixture';
import type { WalletTestSystem } from './wallet-test-system';

/**
 * A wallet client built on the real Turnkey client libraries, driving the REST API the way an
 * embedded-wallet app does. Keys are the client's; the service only ever sees public keys.
 */
export type KeyPair = TurnkeyKeyPair;
export type Api = WalletTestSystem['api'];
type Reply = Awaited<ReturnType<Api>>;

export const newKeyPair = (): KeyPair => turnkeyCrypto.generateP256KeyPair();

export async function stamp(key: KeyPair, payloadToSign: string): Promise<string> {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  return (await stamper.stamp(payloadToSign)).stampHeaderValue;
}

export function signedHeaders(stampValue: string, requestId: string): Record<string, string> {
  return { 'Service-Wallet-Signature': stampValue, 'Request-Id': requestId };
}

export interface WalletFixture {
  accountId: string;
  email: string;
  emailCredentialId: string;
}

/** An EMBEDDED_WALLET account set up through ProvisionWallet, as the accounts service does. */
export async function provisionWallet(
  sys: WalletTestSystem,
  options: { email?: string; phone?: string; accountId?: string } = {},
): Promise<WalletFixture> {
  const accountId = options.accountId ?? `InternalAccount:${randomUUID()}`;
  const email = options.email ?? `user-${randomUUID().slice(0, 8)}@example.com`;
  const response = await sys.walletAuth.provisionWallet(
    {
      accountId,
      platformId: sys.platformId,
      customerEmail: email,
      ...(options.phone ? { customerPhone: options.phone } : {}),
    },
    { platformId: sys.platformId },
  );
  return { accountId, email, emailCredentialId: response.emailOtpCredential!.id };
}

export async function enclavePublicKey(api: Api): Promise<string> {
  return (await api('/auth/enclave-public-key')).body.enclaveQuorumPublic;
}

/** First leg of an OTP sign-in: challenge, then encrypt the code to the target with a fresh key. */
export async function otpFirstLeg(
  api: Api,
  credentialId: string,
  options: { code?: string; key?: KeyPair; type?: string } = {},
) {
  const pinned = await enclavePublicKey(api);
  const challenge = await api(`/auth/credentials/${credentialId}/challenge`, { method: 'POST' });
  if (challenge.status !== 200) {
    throw new Error(`challenge answered ${challenge.status} ${JSON.stringify(challenge.body)}`);
  }
  const key = options.key ?? newKeyPair();
  const encryptedOtpBundle = await turnkeyCrypto.encryptOtpCodeToBundle(
    options.code ?? '000000',
    challenge.body.otpEncryptionTargetBundle,
    key.publicKeyUncompressed,
    pinned,
  );
  const body = { type: options.type ?? 'EMAIL_OTP', encryptedOtpBundle };
  const first = await api(`/auth/credentials/${credentialId}/verify`, { method: 'POST', json: body });
  return { key, body, first };
}

/** Sandbox OTP sign-in end to end; answers the session and the key that signs with it. */
export async function signInWithOtp(
  api: Api,
  credentialId: string,
  type = 'EMAIL_OTP',
): Promise<{ session: any; key: KeyPair }> {
  const { key, body, first } = await otpFirstLeg(api, credentialId, { type });
  if (first.status !== 202) throw new Error(`verify answered ${first.status} ${JSON.stringify(first.body)}`);
  const retry = await api(`/auth/credentials/${credentialId}/verify`, {
    method: 'POST',
    json: body,
    headers: signedHeaders(await stamp(key, first.body.payloadToSign), first.body.requestId),
  });
  if (retry.status !== 200) throw new Error(`signed verify answered ${retry.status} ${JSON.stringify(retry.body)}`);
  return { session: retry.body, key };
}

export interface SignedCall {
  method: string;
  path: string;
  json?: unknown;
}

/** The two steps of the signed-retry pattern: the 202 challenge, then the stamped retry. */
export async function signedRetry(
  api: Api,
  call: SignedCall,
  key: KeyPair,
): Promise<{ challenge: Reply; retry: Reply; headers: Record<string, string> }> {
  const challenge = await api(call.path, { method: call.method, json: call.json });
  if (challenge.status !== 202) {
    throw new Error(`expected 202, got ${challenge.status} ${JSON.stringify(challenge.body)}`);
  }
  const headers = signedHeaders(await stamp(key, challenge.body.payloadToSign), challenge.body.requestId);
  const retry = await api(call.path, { method: call.method, json: call.json, headers });
  return { challenge, retry, headers };
}

// Loaded untyped for the same reason as turnkey-client.fixture.ts (its typings pull in the DOM lib).
const { decryptExportBundle } = require('@turnkey/crypto') as {
  decryptExportBundle(params: {
    exportBundle: string;
    embeddedKey: string;
    organizationId: string;
    dangerouslyOverrideSignerPublicKey?: string;
    returnMnemonic: boolean;
  }): Promise<string>;
};

/** Opens an export the way a wallet app does: enclave signature pinned, then HPKE with the client key. */
export function openWalletExport(
  exportBundle: string,
  clientKey: KeyPair,
  accountId: string,
  pinned: string,
): Promise<string> {
  return decryptExportBundle({
    exportBundle,
    embeddedKey: clientKey.privateKey,
    organizationId: accountId,
    dangerouslyOverrideSignerPublicKey: pinned,
    returnMnemonic: false,
  });
}

export function expectError(res: Reply, status: number, code: string): void {
  if (res.status !== status || res.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
}
