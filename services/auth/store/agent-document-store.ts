import { afterPosition } from '../../../lib/page-cursor';
import type { DocumentStore, Filter } from '../../../lib/store/document-store';
import type { AgentRecord, AgentStore, DeviceCodeRecord } from '../app/agents/agent-store';

type AgentDoc = Omit<AgentRecord, 'id'> & { _id: string };
type DeviceCodeDoc = Omit<DeviceCodeRecord, 'digest'> & { _id: string };

const toAgent = ({ _id, ...rest }: AgentDoc): AgentRecord => ({ id: _id, ...rest });
const toCode = ({ _id, ...rest }: DeviceCodeDoc): DeviceCodeRecord => ({ digest: _id, ...rest });

function range(field: string, after?: string, before?: string): Filter {
  if (!after && !before) return {};
  return { [field]: { ...(after ? { $gte: after } : {}), ...(before ? { $lte: before } : {}) } };
}

export function createAgentDocumentStore(store: DocumentStore): AgentStore {
  const agents = store.collection<AgentDoc>('agents');
  const codes = store.collection<DeviceCodeDoc>('agent_device_codes');

  return {
    async ensureIndexes() {
      await agents.createIndex({
        keys: { tokenDigest: 1 },
        unique: true,
        partialFilter: { tokenDigest: { $exists: true } },
      });
      await agents.createIndex({ keys: { platformId: 1, createdAt: 1 } });
      // The documented filters of GET /agents, in creation order; a range of updatedAt.
      await agents.createIndex({
        keys: { platformId: 1, customerId: 1, createdAt: 1 },
        name: 'agent_customer_created',
      });
      await agents.createIndex({ keys: { platformId: 1, isPaused: 1, createdAt: 1 }, name: 'agent_paused_created' });
      await agents.createIndex({
        keys: { platformId: 1, isConnected: 1, createdAt: 1 },
        name: 'agent_connected_created',
      });
      await agents.createIndex({ keys: { platformId: 1, updatedAt: 1 }, name: 'agent_updated' });
      await codes.createIndex({ keys: { agentId: 1 } });
      await codes.createIndex({ keys: { platformId: 1, createdAt: 1 } });
    },
    async insert(agent) {
      const { id, ...rest } = agent;
      await agents.insertOne({ _id: id, ...rest });
    },
    async get(platformId, id) {
      const doc = await agents.findOne({ _id: id, platformId });
      return doc && toAgent(doc);
    },
    async byTokenDigest(digest) {
      const doc = await agents.findOne({ tokenDigest: digest });
      return doc && toAgent(doc);
    },
    async list(platformId, q) {
      const filter: Filter = {
        platformId,
        ...(q.customerId ? { customerId: q.customerId } : {}),
        ...(q.isPaused !== undefined ? { isPaused: q.isPaused } : {}),
        ...(q.isConnected !== undefined ? { isConnected: q.isConnected } : {}),
        ...range('createdAt', q.createdAfter, q.createdBefore),
        ...range('updatedAt', q.updatedAfter, q.updatedBefore),
      };
      const [docs, totalCount] = await Promise.all([
        agents.find({ ...filter, ...afterPosition(q.after) }, { sort: { createdAt: 1, _id: 1 }, limit: q.limit + 1 }),
        agents.countDocuments(filter),
      ]);
      return { agents: docs.slice(0, q.limit).map(toAgent), hasMore: docs.length > q.limit, totalCount };
    },
    async update(platformId, id, set) {
      const doc = await agents.findOneAndUpdate({ _id: id, platformId }, { $set: set }, { returnDocument: 'after' });
      return doc && toAgent(doc);
    },
    async connect(id, tokenDigest, now) {
      const doc = await agents.findOneAndUpdate({ _id: id }, {
        $set: { tokenDigest, isConnected: true, updatedAt: now },
      }, { returnDocument: 'after' });
      return doc && toAgent(doc);
    },
    async delete(platformId, id) {
      const { deletedCount } = await agents.deleteOne({ _id: id, platformId });
      if (deletedCount) await codes.deleteMany({ agentId: id });
      return deletedCount === 1;
    },
    async insertDeviceCode(code) {
      const { digest, ...rest } = code;
      await codes.insertOne({ _id: digest, ...rest });
    },
    async deviceCode(digest) {
      const doc = await codes.findOne({ _id: digest });
      return doc && toCode(doc);
    },
    async supersedeDeviceCodes(agentId, keep, now) {
      await codes.updateMany({
        agentId,
        _id: { $ne: keep },
        redeemedAt: { $exists: false },
        supersededAt: { $exists: false },
      }, { $set: { supersededAt: now } });
    },
    async countDeviceCodesSince(platformId, since) {
      return codes.countDocuments({ platformId, createdAt: { $gte: since } });
    },
    async deleteDeviceCode(digest) {
      await codes.deleteOne({ _id: digest });
    },
    async claimDeviceCode(digest, now) {
      const result = await codes.updateOne(
        { _id: digest, redeemedAt: { $exists: false }, supersededAt: { $exists: false }, expiresAt: { $gt: now } },
        { $set: { redeemedAt: now } },
      );
      return result.matchedCount === 1;
    },
  };
}
