import { withEvents } from '../../../lib/bus/outbox';
import type { Doc, DocumentCollection, Filter } from '../../../lib/store/document-store';
import type { Platform, PlatformStore } from '../app/accounts-store';
import { completedStepsUpdate, fromDocument, pendingProvisioningFilter, toDocument } from './record-documents';

const read = (doc: Doc) => fromDocument<Platform>(doc);

/** Platforms stored before configuration existed have no revision: they count as revision 0. */
function atRevision(revision: number): Filter {
  return revision === 0
    ? { $or: [{ configRevision: 0 }, { configRevision: { $exists: false } }] }
    : { configRevision: revision };
}

export function createPlatformStore(platforms: DocumentCollection): PlatformStore & { createIndexes(): Promise<void> } {
  return {
    async createIndexes() {
      await platforms.createIndex({ keys: { 'provisioning.plannedAt': 1 }, name: 'platform_provisioning' });
    },
    async ensure(platform) {
      const { _id, ...fields } = toDocument(platform);
      const result = await platforms.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true });
      const stored = await platforms.findOne({ _id });
      return { platform: read(stored as Doc), created: result.upsertedId !== undefined };
    },
    async find(id) {
      const doc = await platforms.findOne({ _id: id });
      return doc ? read(doc) : null;
    },
    async replaceConfig(next, events, steps) {
      const revision = next.configRevision ?? 1;
      const update = {
        $set: {
          settings: next.settings,
          supportedCurrencies: next.supportedCurrencies,
          configRevision: revision,
          updatedAt: next.updatedAt,
          ...(next.umaDomain !== undefined ? { umaDomain: next.umaDomain } : {}),
        },
        ...(steps.length ? { $push: { provisioning: { $each: steps } } } : {}),
      };
      const result = await platforms.updateOne(
        { $and: [{ _id: next.id }, atRevision(revision - 1)] },
        withEvents(update, events),
      );
      return result.matchedCount === 1;
    },
    async completeProvisioning(platformId, accountIds) {
      await platforms.updateOne({ _id: platformId }, completedStepsUpdate(accountIds));
    },
    async findPendingProvisioning(query) {
      return (await platforms.find(pendingProvisioningFilter(query), { limit: query.limit, sort: { _id: 1 } })).map(
        read,
      );
    },
  };
}
