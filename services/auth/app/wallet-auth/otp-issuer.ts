import { randomUUID } from 'node:crypto';
import { AppError } from '../../../../lib/errors';
import { otpChannelOf, type Credential, type OtpChallenge } from '../../domain/wallet-auth/auth-method';
import { otpAlphabet, otpMessage } from '../../domain/wallet-auth/embedded-wallet-config';
import { reissueWaitSeconds, SANDBOX_OTP_CODE } from '../../domain/wallet-auth/otp-rules';
import { generateOtpCode } from '../../domain/wallet-crypto/otp-code';
import { createOtpTarget } from '../../domain/wallet-crypto/otp-target-bundle';
import { openFromStorage, sealForStorage } from '../../domain/wallet-crypto/seal-for-storage';
import type { MessageSender, PlatformSettingsSource, WalletAuthSettings } from './wallet-auth-ports';
import type { CredentialStore } from './wallet-auth-stores';

export interface IssuedOtp {
  credential: Credential;
  /** otpEncryptionTargetBundle */
  bundle: string;
}

/**
 * Issues the OTP of an EMAIL_OTP / SMS_OTP credential: a fresh HPKE target (its private key
 * sealed at rest, bound to this challenge only), a fresh code, and the message carrying it.
 * A new OTP replaces the previous one, at most once per re-issue interval.
 */
export function createOtpIssuer(deps: {
  credentials: CredentialStore;
  platforms: PlatformSettingsSource;
  sender: MessageSender;
  settings: WalletAuthSettings;
  now: () => Date;
}) {
  const seal = (plaintext: string, challengeId: string) =>
    sealForStorage({ plaintext, storageKey: deps.settings.storageKey, associatedData: challengeId });

  return {
    async issue(credential: Credential): Promise<IssuedOtp> {
      const channel = otpChannelOf(credential.type);
      if (!channel) throw AppError.invalidInput(`${credential.type} credentials have no OTP`);
      const now = deps.now();
      const interval = deps.settings.otpReissueIntervalMs;
      const lastIssue = credential.otpIssuedAt ? { issuedAt: credential.otpIssuedAt } : undefined;
      const wait = reissueWaitSeconds(lastIssue, now, interval);
      if (wait > 0) {
        throw new AppError('RATE_LIMITED', 'A code was sent moments ago; wait before asking for another', {
          retryAfterSeconds: wait,
        });
      }

      const { sandbox, config } = await deps.platforms.settingsFor(credential.platformId);
      const code = sandbox
        ? SANDBOX_OTP_CODE
        : generateOtpCode({ length: config.otpLength, alphabet: otpAlphabet(config) });
      const challengeId = randomUUID();
      const target = createOtpTarget({
        enclaveSigningPrivateKey: deps.settings.enclavePrivateKey,
        extra: { organizationId: credential.accountId, challengeId, timestampMs: String(now.getTime()) },
      });
      const otp: OtpChallenge = {
        challengeId,
        sealedTargetKey: seal(target.targetPrivateKey, challengeId),
        sealedCode: seal(code, challengeId),
        issuedAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + config.expirationSeconds * 1000).toISOString(),
        attempts: 0,
      };
      const stored = await deps.credentials.replaceOtp(credential.id, otp, new Date(now.getTime() - interval));
      if (!stored) {
        const current = await deps.credentials.find(credential.platformId, credential.id);
        if (!current || current.state !== 'ACTIVE') throw AppError.notFound('Authentication credential');
        throw new AppError('RATE_LIMITED', 'A code was sent moments ago; wait before asking for another', {
          retryAfterSeconds: Math.max(
            1,
            reissueWaitSeconds(current.otpIssuedAt ? { issuedAt: current.otpIssuedAt } : undefined, now, interval),
          ),
        });
      }
      if (!sandbox) {
        try {
          await deps.sender.send({
            channel,
            to: credential.nickname,
            ...otpMessage(config, channel, code),
            idempotencyKey: `otp:${challengeId}`,
          });
        } catch (err) {
          // Nothing went out, so the user may ask again at once.
          await deps.credentials.withdrawOtp(credential.id, challengeId);
          throw new AppError('UNAVAILABLE', 'The code could not be sent; try again', undefined, { cause: err });
        }
      }
      return { credential: stored, bundle: target.bundle };
    },

    /** The target private key and expected code of the current OTP (only inside the verify). */
    openSecrets(otp: OtpChallenge): { targetPrivateKey: string; code: string } {
      const open = (sealed: string) =>
        openFromStorage({ sealed, storageKey: deps.settings.storageKey, associatedData: otp.challengeId });
      return { targetPrivateKey: open(otp.sealedTargetKey), code: open(otp.sealedCode) };
    },
  };
}

export type OtpIssuer = ReturnType<typeof createOtpIssuer>;
