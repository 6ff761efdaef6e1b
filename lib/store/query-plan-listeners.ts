import type { Filter, QueryPlan } from './document-store';

/** One query the embedded store ran, with its plan. */
export interface ObservedQuery {
  collection: string;
  operation: 'find' | 'count';
  filter: Filter;
  plan: QueryPlan;
}

export const planListeners = new Set<(query: ObservedQuery) => void>();

/**
 * Calls `listener` with the plan of every `find` and `countDocuments` the embedded stores of this
 * process run until the returned function is called (a slow-query investigation; the plan tests).
 * Without a listener a query pays one size check.
 */
export function observeQueryPlans(listener: (query: ObservedQuery) => void): () => void {
  planListeners.add(listener);
  return () => planListeners.delete(listener);
}

export function notifyPlan(
  collection: string,
  operation: ObservedQuery['operation'],
  filter: Filter,
  explain: () => QueryPlan,
): void {
  const query = { collection, operation, filter, plan: explain() };
  for (const listener of planListeners) listener(query);
}
