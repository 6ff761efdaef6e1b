import { DuplicateKeyError, type DocumentStore, type Filter } from '../../../../lib/store/document-store';
import type { AgentUsageStore, UsageCounts, UsageLimits, UsageReservation } from '../app/agent-usage';
import { AgentActionExists } from '../app/agent-action-store';
import { createPendingKeys, reservationLock } from '../../shared/store/pending-keys';
import { createVolumeDocumentStore, VOLUMES_COLLECTION } from '../../payments/store/volume-document-store';
import { AGENT_ACTIONS_COLLECTION } from './agent-action-document-store';

/**
 * One document per agent and UTC month holds the month's spend and each day's count and spend, so
 * a payment's three limits are checked and counted in ONE conditional write. While a reservation
 * is in flight its action's key (`pending.<action>`) rides in that write, so a replay after a crash
 * finds it and never counts twice. The action itself, inserted under the same lock, records what it
 * counted (`usageReservation`); once it is in, the month's next reservation removes the key in its
 * own write. So counting costs one write beyond the action's own insert (the locking and the key are
 * the platforms' daily volumes': pending-keys.ts).
 * Usage held in per-counter form (`agent/<id>/count|spend/<period>` counters and their reservations
 * in the daily volumes) seeds a month's document when it is created, and those reservations are released;
 * reservations earlier versions recorded on their own (`agent_usage_reservations`) are released too.
 */
type UsageDoc = {
  _id: string;
  monthSpend: number;
  days: Record<string, { count: number; spend: number }>;
  releasing: string[];
  pending?: Record<string, number>;
};
/** A reservation recorded on its own, as earlier versions did. */
type EarlierReservationDoc = {
  _id: string;
  actionId: string;
  usage: string;
  day: string;
  amount: number;
  state: UsageReservation['state'];
};
type ActionDoc = { _id: string; usageReservation?: UsageReservation };

export const AGENT_USAGE_COLLECTION = 'agent_usage';
export const AGENT_USAGE_RESERVATIONS_COLLECTION = 'agent_usage_reservations';

const usageId = (agentId: string, month: string) => `agent/${agentId}/${month}`;
const countsOf = (doc: UsageDoc | null, day: string): UsageCounts => ({
  dailyTransactionCount: doc?.days?.[day]?.count ?? 0,
  dailySpend: doc?.days?.[day]?.spend ?? 0,
  monthlySpend: doc?.monthSpend ?? 0,
});

/**
 * Within a limit: the field is absent (nothing counted that day yet; `amount` alone was checked) or at most `limit -
 * add`.
 */
const within = (field: string, add: number, limit: number | undefined): Filter[] =>
  limit === undefined ? [] : [{ $or: [{ [field]: { $exists: false } }, { [field]: { $lte: limit - add } }] }];

export function createAgentUsageDocumentStore(store: DocumentStore): AgentUsageStore {
  const usages = store.collection<UsageDoc>(AGENT_USAGE_COLLECTION);
  const actions = store.collection<ActionDoc>(AGENT_ACTIONS_COLLECTION);
  const earlierRecords = store.collection<EarlierReservationDoc>(AGENT_USAGE_RESERVATIONS_COLLECTION);
  const earlierCounters = store.collection<{ _id: string; used: number }>(VOLUMES_COLLECTION);
  const earlierReservations = createVolumeDocumentStore(store);
  const oneAtATime = reservationLock(store);
  const pending = createPendingKeys();

  /** What the three per-counter documents (`agent/<id>/count|spend/<period>`) hold. */
  async function earlierUsage(agentId: string, day: string, month: string): Promise<UsageCounts> {
    const earlier = async (counter: string) =>
      (await earlierCounters.findOne({ _id: `agent/${agentId}/${counter}` }))?.used ?? 0;
    const [dailyTransactionCount, dailySpend, monthlySpend] = await Promise.all([
      earlier(`count/${day}`),
      earlier(`spend/${day}`),
      earlier(`spend/${month}`),
    ]);
    return { dailyTransactionCount, dailySpend, monthlySpend };
  }

  /** The month's document, seeded with what the per-counter documents hold for that day and month. */
  async function create(agentId: string, day: string, month: string): Promise<void> {
    const { dailyTransactionCount: count, dailySpend, monthlySpend: monthSpend } = await earlierUsage(
      agentId,
      day,
      month,
    );
    const days = count || dailySpend ? { [day]: { count, spend: dailySpend } } : {};
    try {
      await usages.updateOne({ _id: usageId(agentId, month) }, { $setOnInsert: { monthSpend, days, releasing: [] } }, {
        upsert: true,
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  async function count(
    input: { agentId: string; actionId: string; day: string; month: string; amount: number; limits: UsageLimits },
  ): Promise<boolean> {
    const { actionId, day, amount, limits } = input;
    const id = usageId(input.agentId, input.month);
    const field = pending.field(actionId);
    const daily = [
      ...within(`days.${day}.count`, 1, limits.dailyTransactionLimit),
      ...within(`days.${day}.spend`, amount, limits.dailyLimit),
    ];
    const add = async () => {
      const { ids, unset } = pending.removable(id, actionId);
      const result = await usages.updateOne(
        {
          _id: id,
          [field]: { $exists: false },
          ...(limits.monthlyLimit !== undefined ? { monthSpend: { $lte: limits.monthlyLimit - amount } } : {}),
          ...(daily.length ? { $and: daily } : {}),
        },
        {
          $inc: { monthSpend: amount, [`days.${day}.count`]: 1, [`days.${day}.spend`]: amount },
          $set: { [field]: amount },
          ...(unset ? { $unset: unset } : {}),
        },
      );
      pending.removed(id, ids, result.matchedCount === 1);
      return result.matchedCount === 1;
    };
    if (await add()) return true;
    // A month's document exists after its first reservation: created only when an attempt finds nothing.
    if (await usages.countDocuments({ _id: id })) return false;
    await create(input.agentId, day, input.month);
    return add();
  }

  /** The action's count taken back while it is still in flight (its action could not be recorded). */
  async function uncount(usage: string, actionId: string, day: string, amount: number): Promise<void> {
    await usages.updateOne({ _id: usage, [pending.field(actionId)]: { $exists: true } }, {
      $inc: { monthSpend: -amount, [`days.${day}.count`]: -1, [`days.${day}.spend`]: -amount },
      $unset: { [pending.field(actionId)]: '' },
    });
  }

  /** Recorded already: the action (with its count), or a reservation an earlier version recorded on its own. */
  const recorded = async (actionId: string) =>
    (await actions.countDocuments({ _id: actionId })) > 0
    || (await earlierRecords.countDocuments({ _id: actionId })) > 0;

  /**
   * COUNTED → RELEASED, taking the count and spend off once: the usage write carries the key until the reservation
   * says RELEASED (`markReleased`, a conditional write on the document that records it).
   */
  async function releaseOne(actionId: string, r: UsageReservation, markReleased: () => Promise<void>): Promise<void> {
    if (r.state === 'COUNTED') {
      await usages.updateOne(
        { _id: r.usage, releasing: { $ne: actionId } },
        {
          $inc: { monthSpend: -r.amount, [`days.${r.day}.count`]: -1, [`days.${r.day}.spend`]: -r.amount },
          $push: { releasing: actionId },
        },
      );
      await markReleased();
    }
    await usages.updateOne({ _id: r.usage }, { $pull: { releasing: actionId } });
  }

  async function releaseRecorded(actionId: string): Promise<void> {
    const counted = { _id: actionId, 'usageReservation.state': 'COUNTED' };
    const action = await actions.findOne({ _id: actionId, usageReservation: { $exists: true } });
    if (action?.usageReservation) {
      return releaseOne(actionId, action.usageReservation, async () => {
        await actions.updateOne(counted, { $set: { 'usageReservation.state': 'RELEASED' } });
      });
    }
    const earlier = await earlierRecords.findOne({ _id: actionId });
    if (!earlier) return;
    await releaseOne(actionId, earlier, async () => {
      await earlierRecords.updateOne({ _id: actionId, state: 'COUNTED' }, { $set: { state: 'RELEASED' } });
    });
  }

  return {
    reserve(input) {
      const { actionId, day, amount, limits } = input;
      const usage = usageId(input.agentId, input.month);
      return oneAtATime.run(actionId, async () => {
        if (!input.fresh && (await recorded(actionId))) throw new AgentActionExists();
        // An amount above a day's limit on its own is refused here: the write's check passes a day with nothing counted
        // yet.
        const alone = (limits.dailyTransactionLimit ?? 1) < 1 || amount > (limits.dailyLimit ?? amount);
        const counted = (!alone && (await count(input)))
          // Refused: unless this action's amount is already in (an earlier attempt, cut by a crash before it recorded
          // it).
          || (await usages.countDocuments({ _id: usage, [pending.field(actionId)]: { $exists: true } })) > 0;
        if (!counted) return countsOf(await usages.findOne({ _id: usage }), day);
        try {
          await input.record({ usage, day, amount, state: 'COUNTED' });
        } catch (err) {
          if (err instanceof AgentActionExists) await uncount(usage, actionId, day, amount);
          throw err;
        }
        pending.recorded(usage, actionId);
        return null;
      });
    },
    async release(actionId) {
      await oneAtATime.run(actionId, () => releaseRecorded(actionId));
      await earlierReservations.release({ paymentId: actionId });
    },
    async used(agentId, day, month) {
      const usage = await usages.findOne({ _id: usageId(agentId, month) });
      return usage ? countsOf(usage, day) : earlierUsage(agentId, day, month);
    },
  };
}
