import { AppError } from '../../../../lib/errors';
import { parseStamp, verifyStamp, type Stamp } from '../../domain/wallet-crypto/stamp';
import type { SignedRetryRecord } from '../../domain/wallet-auth/signed-retry-record';
import { isSessionActive, type WalletSession } from '../../domain/wallet-auth/wallet-session';

export interface SigningSessions {
  findBySigningKey(signingPublicKey: string): Promise<WalletSession[]>;
}

/** Checks a WebAuthn assertion in the retry body against a passkey challenge (throws AppError). */
export type AssertionCheck = (record: SignedRetryRecord, body: unknown) => Promise<void>;

const invalid = (message: string) => new AppError('WALLET_SIGNATURE_INVALID', message);

export function parseStampHeader(header: string): Stamp {
  try {
    return parseStamp(header);
  } catch {
    throw new AppError('WALLET_SIGNATURE_MALFORMED', 'Service-Wallet-Signature cannot be parsed');
  }
}

/**
 * The stamp must verify over payloadToSign byte for byte, and its key must be the one the
 * challenge names: an active, unexpired session of the right account (and credential).
 */
export async function checkSigner(input: {
  record: SignedRetryRecord;
  stamp?: Stamp;
  body: unknown;
  sessions: SigningSessions;
  checkAssertion?: AssertionCheck;
  now: Date;
}): Promise<void> {
  const { record, stamp } = input;
  const signer = record.signer;
  if (signer.kind === 'none') return;
  if (signer.kind === 'assertion') {
    if (!input.checkAssertion) throw invalid('passkey assertions cannot be checked');
    return input.checkAssertion(record, input.body);
  }
  if (!stamp) {
    throw new AppError('WALLET_SIGNATURE_MISSING', 'Service-Wallet-Signature is required on the signed retry');
  }
  if (!verifyStamp(stamp, record.payloadToSign)) throw invalid('the stamp does not verify over payloadToSign');
  if (signer.kind === 'key') {
    if (stamp.publicKey !== signer.publicKey) {
      throw invalid('the stamp is not signed by the key bound into the challenge');
    }
    return;
  }
  const sessions = await input.sessions.findBySigningKey(stamp.publicKey);
  const authorizes = sessions.some(
    (session) =>
      session.platformId === record.platformId
      && isSessionActive(session, input.now)
      && signer.accountIds.includes(session.accountId)
      && (signer.excludeCredentialId === undefined || session.credentialId !== signer.excludeCredentialId)
      && (signer.sessionId === undefined || session.id === signer.sessionId),
  );
  if (!authorizes) throw invalid('the stamp key is not an active session allowed to authorize this request');
}
