import { withEvents, withInitialEvents } from '../../../../lib/bus/outbox';
import { afterPosition } from '../../../../lib/page-cursor';
import { DuplicateKeyError, type DocumentStore, type Filter } from '../../../../lib/store/document-store';
import { AgentActionExists, type AgentAction, type AgentActionStore } from '../app/agent-action-store';

type ActionDoc = Omit<AgentAction, 'id'> & { _id: string };

export const AGENT_ACTIONS_COLLECTION = 'agent_actions';

function toAction(doc: ActionDoc): AgentAction {
  const { _id, ...rest } = doc;
  delete (rest as Record<string, unknown>)._outbox;
  return { id: _id, ...rest };
}

export function createAgentActionDocumentStore(store: DocumentStore) {
  const actions = store.collection<ActionDoc>(AGENT_ACTIONS_COLLECTION);

  const port: AgentActionStore = {
    async ensureIndexes() {
      // One live action per quote: a quote submitted (and not rejected or failed) cannot be submitted again.
      // It also finds the action waiting on a quote's transaction (a waiting action always holds its claim).
      await actions.createIndex({
        keys: { quoteClaim: 1 },
        unique: true,
        partialFilter: { quoteClaim: { $exists: true } },
      });
      // The platform's approval queue (GET /agents/approvals) and an agent's own actions (GET /agents/me/actions).
      await actions.createIndex({ keys: { platformId: 1, status: 1, createdAt: 1 } });
      // GET /agents/approvals?agentId=&customerId=: the actions waiting for approval, in order of submission.
      await actions.createIndex({
        keys: { platformId: 1, status: 1, agentId: 1, createdAt: 1 },
        name: 'action_agent_created',
      });
      await actions.createIndex({
        keys: { platformId: 1, status: 1, customerId: 1, createdAt: 1 },
        name: 'action_customer_created',
      });
      await actions.createIndex({ keys: { agentId: 1, createdAt: 1 } });
      // The recovery's few in-flight executions: the field exists only between the decision and the payment.
      await actions.createIndex({ keys: { executing: 1 }, partialFilter: { executing: true } });
    },
    async insert(action, events) {
      const { id, ...rest } = action;
      try {
        await actions.insertOne(withInitialEvents({ _id: id, ...rest }, events));
      } catch (err) {
        if (err instanceof DuplicateKeyError) throw new AgentActionExists();
        throw err;
      }
    },
    async get(platformId, id) {
      const doc = await actions.findOne({ _id: id, platformId });
      return doc && toAction(doc);
    },
    async pendingForQuote(platformId, quoteId) {
      const doc = await actions.findOne({ quoteClaim: quoteId, platformId, status: 'PENDING_APPROVAL' });
      return doc && toAction(doc);
    },
    async transition({ platformId, id, from, set, unset = [] }) {
      const state: Filter = from === 'EXECUTING' ? { status: 'APPROVED', executing: true } : { status: from };
      const update = withEvents({
        $set: set,
        ...(unset.length ? { $unset: Object.fromEntries(unset.map((k) => [k, ''])) } : {}),
      }, []);
      const doc = await actions.findOneAndUpdate({ _id: id, platformId, ...state }, update, {
        returnDocument: 'after',
      });
      return doc && toAction(doc);
    },
    async interruptedExecutions(before, limit) {
      return (await actions.find({ status: 'APPROVED', executing: true, updatedAt: { $lt: before } }, { limit })).map(
        toAction,
      );
    },
    async list(platformId, q) {
      const range = q.startDate || q.endDate
        ? { createdAt: { ...(q.startDate ? { $gte: q.startDate } : {}), ...(q.endDate ? { $lte: q.endDate } : {}) } }
        : {};
      const filter: Filter = {
        platformId,
        ...(q.agentId ? { agentId: q.agentId } : {}),
        ...(q.customerId ? { customerId: q.customerId } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...range,
      };
      const direction = q.sortOrder === 'asc' ? 1 : -1;
      const [docs, totalCount] = await Promise.all([
        actions.find({ ...filter, ...afterPosition(q.after, q.sortOrder) }, {
          sort: { createdAt: direction, _id: direction },
          limit: q.limit + 1,
        }),
        actions.countDocuments(filter),
      ]);
      return { actions: docs.slice(0, q.limit).map(toAction), hasMore: docs.length > q.limit, totalCount };
    },
  };
  return { port, collection: actions };
}
