import { withEvents, withInitialEvents } from '../../../lib/bus/outbox';
import { DuplicateKeyError, type DocumentCollection } from '../../../lib/store/document-store';
import type { KycLinkRecord, KycLinkStore, VerificationStore } from '../app/verification-store';
import type { Verification } from '../domain/verification';
import { findPage, fromDocument, present, toDocument } from './record-documents';

const read = (doc: Parameters<typeof fromDocument>[0]) => fromDocument<Verification>(doc);

export function createVerificationStore(
  verifications: DocumentCollection,
): VerificationStore & { createIndexes(): Promise<void> } {
  return {
    async createIndexes() {
      await verifications.createIndex({
        keys: { platformId: 1, customerId: 1 },
        unique: true,
        name: 'verification_customer',
      });
      await verifications.createIndex({ keys: { platformId: 1, createdAt: 1, _id: 1 }, name: 'verification_created' });
      // The documented filters of GET /verifications, in creation order.
      await verifications.createIndex({
        keys: { platformId: 1, customerId: 1, createdAt: 1, _id: 1 },
        name: 'verification_customer_created',
      });
      await verifications.createIndex({
        keys: { platformId: 1, status: 1, createdAt: 1, _id: 1 },
        name: 'verification_status_created',
      });
      await verifications.createIndex({
        keys: { nextStepAt: 1 },
        partialFilter: { nextStepAt: { $exists: true } },
        name: 'verification_next_step',
      });
      await verifications.createIndex({
        keys: { customerStatusDue: 1 },
        partialFilter: { customerStatusDue: true },
        name: 'verification_customer_status_due',
      });
    },
    async insert(v, events) {
      try {
        await verifications.insertOne(withInitialEvents(toDocument(v), events));
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    },
    async find(platformId, id) {
      const doc = await verifications.findOne({ _id: id, platformId });
      return doc ? read(doc) : null;
    },
    async findForCustomer(platformId, customerId) {
      const doc = await verifications.findOne({ platformId, customerId });
      return doc ? read(doc) : null;
    },
    async replace(next, events) {
      const { _id, ...fields } = toDocument(next);
      const unset = Object.fromEntries(
        ['nextStepAt', 'customerStatusDue'].filter((k) => fields[k] === undefined).map((k) => [k, '']),
      );
      const update = { $set: fields, ...(Object.keys(unset).length ? { $unset: unset } : {}) };
      const result = await verifications.updateOne(
        { _id, platformId: next.platformId, revision: next.revision - 1 },
        withEvents(update, events),
      );
      return result.matchedCount === 1;
    },
    list(platformId, filter, page) {
      return findPage(
        verifications,
        present({ platformId, customerId: filter.customerId, status: filter.status }),
        page,
        read,
      );
    },
    async findStepsDue(now, limit) {
      return (await verifications.find({ nextStepAt: { $lte: now } }, { limit, sort: { nextStepAt: 1 } })).map(read);
    },
    async findCustomerStatusDue(limit) {
      return (await verifications.find({ customerStatusDue: true }, { limit, sort: { _id: 1 } })).map(read);
    },
    async markCustomerStatusApplied(id, revision) {
      await verifications.updateOne({ _id: id, revision }, { $unset: { customerStatusDue: '' } });
    },
  };
}

export function createKycLinkStore(links: DocumentCollection): KycLinkStore & { createIndexes(): Promise<void> } {
  const readLink = (doc: Record<string, unknown>): KycLinkRecord => {
    const { _id, ...rest } = doc;
    return { tokenHash: _id as string, ...(rest as Omit<KycLinkRecord, 'tokenHash'>) };
  };
  return {
    async createIndexes() {
      await links.createIndex({ keys: { expiresAt: 1 }, name: 'kyc_link_expiry' });
    },
    async insert(link) {
      const { tokenHash, ...rest } = link;
      await links.insertOne({ _id: tokenHash, ...present(rest) });
    },
    async find(tokenHash) {
      const doc = await links.findOne({ _id: tokenHash });
      return doc ? readLink(doc) : null;
    },
    async forgetExpired(before) {
      return (await links.deleteMany({ expiresAt: { $lt: before } })).deletedCount;
    },
    async claim(tokenHash, now) {
      const result = await links.updateOne({ _id: tokenHash, usedAt: { $exists: false }, expiresAt: { $gt: now } }, {
        $set: { usedAt: now },
      });
      if (result.matchedCount !== 1) return null;
      const doc = await links.findOne({ _id: tokenHash });
      return doc ? readLink(doc) : null;
    },
  };
}
