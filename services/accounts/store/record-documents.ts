import type { Doc, DocumentCollection, Filter } from '../../../lib/store/document-store';
import type { Page, PageQuery } from '../app/accounts-store';

/** Store-only members, never part of a domain record. */
const STORE_MEMBERS = new Set(['_id', '_outbox', 'ownerKey', 'isDeleted', 'deletedAt', 'clearingPreviousDefault']);

/** A record as a document: its id becomes `_id`; absent (undefined) members are left out. */
export function toDocument(record: { id: string }, extra: Record<string, unknown> = {}): Doc {
  const { id, ...rest } = record as { id: string } & Record<string, unknown>;
  const members = Object.entries({ ...rest, ...extra }).filter(([, v]) => v !== undefined);
  return { _id: id, ...Object.fromEntries(members) };
}

/** The domain record stored in `doc`, without the store's own members. */
export function fromDocument<T>(doc: Doc, keep: string[] = []): T {
  const out: Record<string, unknown> = { id: doc._id };
  for (const [k, v] of Object.entries(doc)) if (!STORE_MEMBERS.has(k) || keep.includes(k)) out[k] = v;
  return out as T;
}

/** `ownerKey` of a record: its customer id, or PLATFORM for the platform's own. */
export function ownerKeyOf(customerId: string | undefined): string {
  return customerId ?? 'PLATFORM';
}

export function ownerCondition(owner: string): Filter {
  if (owner === 'ANY_CUSTOMER') return { ownerKey: { $ne: 'PLATFORM' } };
  return { ownerKey: owner };
}

/** One page in creation order (ties broken by id), plus the total for the filter. */
export async function findPage<T>(
  collection: DocumentCollection,
  filter: Filter,
  page: PageQuery,
  read: (doc: Doc) => T,
): Promise<Page<T>> {
  const after = page.after
    ? {
      $or: [{ createdAt: { $gt: page.after.createdAt } }, {
        createdAt: page.after.createdAt,
        _id: { $gt: page.after.id },
      }],
    }
    : {};
  const [docs, totalCount] = await Promise.all([
    collection.find({ $and: [filter, after] }, { sort: { createdAt: 1, _id: 1 }, limit: page.limit + 1 }),
    countMatching(collection, filter),
  ]);
  return { items: docs.slice(0, page.limit).map(read), hasMore: docs.length > page.limit, totalCount };
}

/**
 * How many documents match. A top-level `{field: {$ne: x}}` (the accounts of any customer) is counted
 * as all the others' matches less those with `field` equal to x (the two are complementary): indexes
 * count equalities and ranges, not exclusions.
 */
async function countMatching(collection: DocumentCollection, filter: Filter): Promise<number> {
  const excluded = Object.entries(filter).find(([, condition]) => isExclusion(condition));
  if (!excluded) return collection.countDocuments(filter);
  const [field, condition] = excluded;
  const { [field]: _excluded, ...others } = filter;
  const [all, equal] = await Promise.all([
    collection.countDocuments(others),
    collection.countDocuments({ ...others, [field]: { $eq: (condition as { $ne: unknown }).$ne } }),
  ]);
  return all - equal;
}

function isExclusion(condition: unknown): boolean {
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) return false;
  const keys = Object.keys(condition);
  const value = (condition as { $ne?: unknown }).$ne;
  return keys.length === 1 && keys[0] === '$ne'
    && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean');
}

/** Drops filter members whose value is undefined (an absent query parameter). */
export function present(filter: Filter): Filter {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));
}

/** Documents whose `provisioning` marker lists a step planned at or before `plannedBefore`, after `afterId`. */
export function pendingProvisioningFilter(query: { plannedBefore: string; afterId?: string }): Filter {
  return {
    provisioning: { $elemMatch: { plannedAt: { $lte: query.plannedBefore } } },
    ...(query.afterId ? { _id: { $gt: query.afterId } } : {}),
  };
}

/** Removes completed steps from a record's marker. */
export function completedStepsUpdate(accountIds: string[]) {
  return { $pull: { provisioning: { accountId: { $in: accountIds } } } };
}
