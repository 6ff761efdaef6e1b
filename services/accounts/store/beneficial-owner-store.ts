import type { DocumentCollection } from '../../../lib/store/document-store';
import type { BeneficialOwnerStore } from '../app/verification-store';
import type { BeneficialOwner } from '../domain/beneficial-owner';
import { findPage, fromDocument, present, toDocument } from './record-documents';

const read = (doc: Parameters<typeof fromDocument>[0]) => fromDocument<BeneficialOwner>(doc);

export function createBeneficialOwnerStore(
  owners: DocumentCollection,
): BeneficialOwnerStore & { createIndexes(): Promise<void> } {
  return {
    async createIndexes() {
      await owners.createIndex({ keys: { platformId: 1, customerId: 1 }, name: 'owner_customer' });
      await owners.createIndex({ keys: { platformId: 1, createdAt: 1, _id: 1 }, name: 'owner_created' });
    },
    async insert(owner) {
      await owners.insertOne(toDocument(owner));
    },
    async find(platformId, id) {
      const doc = await owners.findOne({ _id: id, platformId });
      return doc ? read(doc) : null;
    },
    list(platformId, customerId, page) {
      return findPage(owners, present({ platformId, customerId }), page, read);
    },
    async ofCustomer(platformId, customerId) {
      return (await owners.find({ platformId, customerId }, { sort: { createdAt: 1, _id: 1 } })).map(read);
    },
    async replace(next) {
      const { _id, ...fields } = toDocument(next);
      const result = await owners.updateOne({ _id, platformId: next.platformId, revision: next.revision - 1 }, {
        $set: fields,
      });
      return result.matchedCount === 1;
    },
    async setKycStatus({ platformId, customerId, status, now, own }) {
      const apart = Object.keys(own);
      await owners.updateMany(
        { platformId, customerId, kycStatus: { $ne: status }, ...(apart.length ? { _id: { $nin: apart } } : {}) },
        { $set: { kycStatus: status, updatedAt: now }, $inc: { revision: 1 } },
      );
      for (const [id, ownStatus] of Object.entries(own)) {
        await owners.updateOne({ _id: id, platformId, customerId, kycStatus: { $ne: ownStatus } }, {
          $set: { kycStatus: ownStatus, updatedAt: now },
          $inc: { revision: 1 },
        });
      }
    },
  };
}
