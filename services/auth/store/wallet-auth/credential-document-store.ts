import { DuplicateKeyError, type Doc, type DocumentStore } from '../../../../lib/store/document-store';
import type { Credential } from '../../domain/wallet-auth/auth-method';
import { CredentialExistsError, type CredentialStore } from '../../app/wallet-auth/wallet-auth-stores';
import { fromDocument, toDocument } from './document-mapping';

/**
 * One unique index enforces every "one per" rule: an active credential holds a slot naming
 * what it must be unique by, and gives it up when revoked.
 */
export function uniqueSlotOf(credential: Credential): string {
  switch (credential.type) {
    case 'EMAIL_OTP':
    case 'SMS_OTP':
      return `${credential.accountId}|${credential.type}`;
    case 'PASSKEY':
      return `PASSKEY|${credential.credentialId}`;
    case 'OAUTH':
      return `${credential.accountId}|OAUTH|${credential.oauth?.iss}|${credential.oauth?.sub}`;
  }
}

export function createCredentialDocumentStore(
  store: DocumentStore,
): CredentialStore & { ensureIndexes(): Promise<void> } {
  const credentials = store.collection<Doc>('wallet_credentials');
  const read = (doc: Doc | null) => {
    const record = fromDocument<Credential & { uniqueSlot?: string }>(doc);
    if (record) delete record.uniqueSlot;
    return record as Credential | null;
  };
  const many = (docs: Doc[]) => docs.map((doc) => read(doc)!);
  return {
    async ensureIndexes() {
      await credentials.createIndex({
        keys: { uniqueSlot: 1 },
        unique: true,
        partialFilter: { uniqueSlot: { $exists: true } },
        name: 'unique_slot',
      });
      await credentials.createIndex({ keys: { accountId: 1, state: 1 }, name: 'account_state' });
    },
    async insert(credential) {
      const doc = {
        ...toDocument(credential),
        ...(credential.state === 'ACTIVE' ? { uniqueSlot: uniqueSlotOf(credential) } : {}),
      };
      try {
        await credentials.insertOne(doc as Doc);
        return true;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        if (await credentials.findOne({ _id: credential.id })) return false;
        throw new CredentialExistsError(credential.type);
      }
    },
    async find(platformId, id) {
      return read(await credentials.findOne({ _id: id, platformId }));
    },
    async listActive(platformId, accountId) {
      return many(await credentials.find({ platformId, accountId, state: 'ACTIVE' }, { sort: { createdAt: 1 } }));
    },
    async findActiveByType(platformId, accountId, type) {
      return read(await credentials.findOne({ platformId, accountId, type, state: 'ACTIVE' }));
    },
    async findActivePasskey(credentialId) {
      return read(await credentials.findOne({ uniqueSlot: `PASSKEY|${credentialId}` }));
    },
    async replaceOtp(id, otp, issuedBefore) {
      const filter = {
        _id: id,
        state: 'ACTIVE',
        $or: [{ otpIssuedAt: { $exists: false } }, { otpIssuedAt: { $lte: issuedBefore.toISOString() } }],
      };
      return read(
        await credentials.findOneAndUpdate(filter, { $set: { otp, otpIssuedAt: otp.issuedAt } }, {
          returnDocument: 'after',
        }),
      );
    },
    async withdrawOtp(id, challengeId) {
      await credentials.updateOne({ _id: id, 'otp.challengeId': challengeId }, {
        $unset: { otp: '', otpIssuedAt: '' },
      });
    },
    async countOtpAttempt(id, challengeId, maxAttempts) {
      const filter = { _id: id, state: 'ACTIVE', 'otp.challengeId': challengeId, 'otp.attempts': { $lt: maxAttempts } };
      return read(
        await credentials.findOneAndUpdate(filter, { $inc: { 'otp.attempts': 1 } }, { returnDocument: 'after' }),
      );
    },
    async consumeOtp(id, challengeId) {
      const result = await credentials.updateOne({ _id: id, 'otp.challengeId': challengeId }, { $unset: { otp: '' } });
      return result.modifiedCount === 1;
    },
    async advancePasskeyCounter(id, from, to) {
      const result = await credentials.updateOne({ _id: id, state: 'ACTIVE', 'passkey.counter': from }, {
        $set: { 'passkey.counter': to },
      });
      return result.modifiedCount === 1;
    },
    async revoke(id, now) {
      const result = await credentials.updateOne(
        { _id: id, state: 'ACTIVE' },
        { $set: { state: 'REVOKED', updatedAt: now.toISOString() }, $unset: { uniqueSlot: '', otp: '' } },
      );
      return result.modifiedCount === 1;
    },
    async reactivate(id, now) {
      const doc = read(await credentials.findOne({ _id: id }));
      if (!doc) return;
      await credentials.updateOne({ _id: id, state: 'REVOKED' }, {
        $set: { state: 'ACTIVE', uniqueSlot: uniqueSlotOf(doc), updatedAt: now.toISOString() },
      });
    },
    async setNickname(id, nickname, now) {
      await credentials.updateOne({ _id: id }, { $set: { nickname, updatedAt: now.toISOString() } });
    },
    async findActiveEmailOtpByEmail(platformId, email) {
      return many(await credentials.find({ platformId, type: 'EMAIL_OTP', state: 'ACTIVE', nickname: email }));
    },
  };
}
