import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../lib/errors';
import type { Customer } from '../domain/customer';
import type { ContactChannel } from '../domain/contact-verification';
import type { AccountsStore } from './accounts-store';

/** A code sent to one channel of one customer: only its salted hash is kept. */
export interface ContactChallenge {
  id: string;
  platformId: string;
  codeHash: string;
  salt: string;
  sentAt: string;
  expiresAt: string;
  failedAttempts: number;
}

export interface ContactChallengeStore {
  /** Stores a new challenge unless one was sent after `sentBefore` (then false: rate limited). */
  issue(challenge: ContactChallenge, sentBefore: string): Promise<boolean>;
  find(id: string): Promise<ContactChallenge | null>;
  /** Counts a wrong code if fewer than `max` were counted; false when the code is used up. */
  countFailure(id: string, codeHash: string, max: number): Promise<boolean>;
  /** Removes the challenge if it is still this code: true exactly once (single use). */
  consume(id: string, codeHash: string): Promise<boolean>;
}

/** The message-delivery port (the notifications service). */
export interface ContactMessenger {
  send(
    message: { channel: 'EMAIL' | 'SMS'; to: string; subject: string; body: string; idempotencyKey: string },
  ): Promise<void>;
}

export interface ContactVerificationSettings {
  sandbox: boolean;
  codeTtlMs: number;
  resendIntervalMs: number;
  maxAttempts: number;
}

export interface ContactVerification {
  send(platformId: string, customerId: string, channel: ContactChannel): Promise<void>;
  confirm(platformId: string, customerId: string, channel: ContactChannel, code: unknown): Promise<Customer>;
}

export const SANDBOX_CONTACT_CODE = '123456';
const WORDS = { email: 'email', phone: 'phone' } as const;

const hashOf = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest('hex');

function invalidCode(message: string): AppError {
  return AppError.invalidInput(message, [{ field: 'code', message }]);
}

/**
 * Email and phone verification where the customer's region requires it: one-time 6-digit codes
 * through the message-delivery port, stored as salted hashes, expiring, single use, at most
 * `maxAttempts` tries each and one send per channel per `resendIntervalMs` (429 with Retry-After).
 */
export function createContactVerification(deps: {
  store: AccountsStore;
  challenges: ContactChallengeStore;
  messenger: ContactMessenger;
  settings: ContactVerificationSettings;
  clock: () => Date;
}): ContactVerification {
  const { store, challenges, settings } = deps;

  const required = async (platformId: string, customerId: string, channel: ContactChannel) => {
    const customer = await store.customers.find(platformId, customerId);
    if (!customer || customer.isDeleted) throw AppError.notFound('Customer', 'USER_NOT_FOUND');
    const status = customer.contactVerification?.[channel];
    if (!status) {
      throw new AppError('CONFLICT', `This customer's region does not require ${WORDS[channel]} verification`);
    }
    if (status === 'VERIFIED') throw new AppError('CONFLICT', `The ${WORDS[channel]} is already verified`);
    return customer;
  };

  return {
    async send(platformId, customerId, channel) {
      const customer = await required(platformId, customerId, channel);
      const to = channel === 'email' ? customer.email : customer.phoneNumber;
      if (!to) {
        throw new AppError(
          'MISSING_MANDATORY_USER_INFO',
          `The customer has no ${channel === 'email' ? 'email' : 'phoneNumber'} to verify`,
        );
      }
      const now = deps.clock();
      const code = settings.sandbox ? SANDBOX_CONTACT_CODE : String(randomInt(0, 1_000_000)).padStart(6, '0');
      const salt = randomBytes(16).toString('hex');
      const challenge: ContactChallenge = {
        id: `${customerId}:${channel}`,
        platformId,
        codeHash: hashOf(salt, code),
        salt,
        failedAttempts: 0,
        sentAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + settings.codeTtlMs).toISOString(),
      };
      if (!(await challenges.issue(challenge, new Date(now.getTime() - settings.resendIntervalMs).toISOString()))) {
        const previous = await challenges.find(challenge.id);
        const waitMs = previous
          ? Date.parse(previous.sentAt) + settings.resendIntervalMs - now.getTime()
          : settings.resendIntervalMs;
        throw new AppError('RATE_LIMITED', 'A code was sent moments ago; wait before asking for another', {
          retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
        });
      }
      await deps.messenger.send({
        channel: channel === 'email' ? 'EMAIL' : 'SMS',
        to,
        subject: 'Your verification code',
        body: `Your verification code is ${code}. It expires in ${Math.round(settings.codeTtlMs / 60_000)} minutes.`,
        idempotencyKey: `contact-verification:${challenge.id}:${salt}`,
      });
    },

    async confirm(platformId, customerId, channel, code) {
      await required(platformId, customerId, channel);
      if (typeof code !== 'string' || !/^\d{6}$/.test(code)) throw invalidCode('must be the 6-digit code sent');
      const id = `${customerId}:${channel}`;
      const challenge = await challenges.find(id);
      if (!challenge || challenge.platformId !== platformId || challenge.expiresAt <= deps.clock().toISOString()) {
        throw invalidCode('is expired or was never sent: ask for a new one');
      }
      const given = Buffer.from(hashOf(challenge.salt, code), 'hex');
      if (!timingSafeEqual(given, Buffer.from(challenge.codeHash, 'hex'))) {
        const counted = await challenges.countFailure(id, challenge.codeHash, settings.maxAttempts);
        throw invalidCode(counted ? 'is not the code sent' : 'has been tried too often: ask for a new one');
      }
      if (challenge.failedAttempts >= settings.maxAttempts || !(await challenges.consume(id, challenge.codeHash))) {
        throw invalidCode('has already been used or tried too often: ask for a new one');
      }
      const now = deps.clock().toISOString();
      await store.customers.setContactStatus({ platformId, customerId, channel, status: 'VERIFIED', now });
      return (await store.customers.find(platformId, customerId))!;
    },
  };
}
