import { AppError } from '../../../../lib/errors';
import { verifyPasskeyAssertion, type PasskeyAssertion } from '../../domain/passkey/verify-passkey-assertion';
import type { SignedRetryRecord } from '../../domain/wallet-auth/signed-retry-record';
import { bodyOf, requireObject } from './request-fields';
import type { AssertionCheck } from './signing-check';
import type { PlatformSettingsSource } from './wallet-auth-ports';
import type { CredentialStore } from './wallet-auth-stores';

/** Verifies the passkey assertion of a verify retry against its challenge and moves the counter on. */
export function createPasskeyAssertionCheck(
  deps: { credentials: CredentialStore; platforms: PlatformSettingsSource },
): AssertionCheck {
  return async (record: SignedRetryRecord, rawBody: unknown) => {
    const assertion = requireObject(bodyOf(rawBody), 'assertion') as unknown as PasskeyAssertion;
    const credential = await deps.credentials.find(record.platformId, String(record.context.credentialId));
    if (!credential?.passkey || !credential.credentialId || credential.state !== 'ACTIVE') {
      throw new AppError('WALLET_SIGNATURE_INVALID', 'The passkey is not registered');
    }
    const { passkey } = await deps.platforms.settingsFor(record.platformId);
    const { newCounter } = await verifyPasskeyAssertion({
      challengeHex: record.payloadToSign,
      assertion,
      credential: {
        credentialId: credential.credentialId,
        publicKey: credential.passkey.publicKey,
        counter: credential.passkey.counter,
      },
      rpIds: passkey.rpIds,
      origins: passkey.origins,
      requireUserVerification: passkey.requireUserVerification,
    });
    const from = credential.passkey.counter;
    if (newCounter !== from && !(await deps.credentials.advancePasskeyCounter(credential.id, from, newCounter))) {
      throw new AppError('WALLET_SIGNATURE_INVALID', 'The passkey assertion was replayed');
    }
  };
}
