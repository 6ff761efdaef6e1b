import type { TSchema } from '@sinclair/typebox';
import { OPERATIONS } from '../../gateway/contract/operation-registry';
import type { Operation } from '../../gateway/contract/operation';
import { observeQueryPlans, type ObservedQuery } from '../../lib/store/query-plan-listeners';
import { startTestSystem, type TestSystem } from '../system-harness';
import { accountQuote, externalAccount, fund, payingCustomer } from './payments-fixtures';

/**
 * Every query filter the contract documents on a list operation, alone and in pairs, is answered
 * from an index: each query the request makes has an index plan (no scan), and the page's query
 * (and its count) has an index answering the filter's condition, not one walking the unfiltered
 * list and testing it on every document. The filters come from the contract (OPERATIONS), so a
 * filter added without an index fails here.
 */

/** Paging and ordering: not filters (sortOrder is still checked, as a variant of the unfiltered list). */
const NOT_FILTERS = new Set(['limit', 'cursor']);

/**
 * List operations: a documented page of records (a `cursor`), or a list named so. Agent calls take an agent's token.
 */
function listOperations(): Operation[] {
  return OPERATIONS.filter((op) =>
    op.method === 'get' && op.query && !op.agentAuth && !op.root
    && ('cursor' in op.query.properties || op.operationId.startsWith('list'))
    && !op.path.includes('{')
  );
}

/** Operations whose lists are computed, not read from a store. */
const COMPUTED = new Set(['listExchangeRates', 'listScaFactors', 'listCredentials', 'listSessions']);

interface Sample {
  customerId: string;
  platformCustomerId: string;
  accountId: string;
}

/**
 * A value the parameter accepts: an enum's first member, a date, or a seeded record's id where the name says what it
 * is.
 */
function sampleValue(name: string, schema: TSchema, sample: Sample): string {
  const members = (schema.anyOf as TSchema[] | undefined)?.map((member) => member.const).filter((v) => v !== undefined)
    ?? (schema.enum as unknown[] | undefined);
  if (members?.length) return String(members[members.length > 1 && members[0] === 'asc' ? 1 : 0]);
  if (schema.format === 'date-time' || /(After|Before|Date)$/.test(name)) {
    return name.includes('After') || name === 'startDate' ? '2020-01-01T00:00:00.000Z' : '2100-01-01T00:00:00.000Z';
  }
  if (name === 'customerId' || name === 'cardholderId') return sample.customerId;
  if (name === 'platformCustomerId') return sample.platformCustomerId;
  // An account no payment names: its entries are then fewer than the platform's (ids of records a
  // request checks come from the seeded records above).
  if (
    /AccountId$/.test(name) || /AccountIdentifier$/.test(name) || name === 'accountIdentifier' || name === 'accountId'
  ) return 'InternalAccount:probe';
  if (name === 'type') return 'OUTGOING';
  if (name === 'sortOrder') return 'asc';
  if (name === 'currency') return 'USD';
  if (name === 'region') return 'US';
  if (/^(is|has)[A-Z]/.test(name)) return 'true';
  return name === 'status' ? 'FAILED' : `probe-${name}`;
}

/** The queries of one request: every one, and those that read a list (not a record by its key). */
interface Observed {
  queries: ObservedQuery[];
  lists: ObservedQuery[];
}

describe('documented list filters are answered from indexes', () => {
  let sys: TestSystem;
  let sample: Sample;

  beforeAll(async () => {
    sys = await startTestSystem();
    // Records on the platform beyond those a filter picks, so that the unfiltered list is the larger
    // one (the plans weigh entries): two customers, a payment between them, an external account.
    const payer = await payingCustomer(sys);
    const payee = await payingCustomer(sys);
    await fund(sys, payer.usdAccountId, 10_000);
    const quote = await sys.api('/quotes', {
      method: 'POST',
      json: { ...accountQuote(payer.usdAccountId, payee.usdAccountId, 1_000), immediatelyExecute: true },
    });
    expect(quote.status).toBe(201);
    await externalAccount(sys, payee.customerId);
    sample = {
      customerId: payer.customerId,
      platformCustomerId: payer.customer.platformCustomerId,
      accountId: payer.usdAccountId,
    };
  });
  afterAll(() => sys?.stop());

  /** Runs the request, recording the plan of each query it makes; `required`: it must answer 200. */
  async function observe(op: Operation, params: Record<string, string>, required = true): Promise<Observed> {
    const queries: ObservedQuery[] = [];
    const stop = observeQueryPlans((query) => queries.push(query));
    let res;
    try {
      res = await sys.api(`${op.path}?${new URLSearchParams(params)}`);
    } finally {
      stop();
    }
    if (required) {
      expect({ op: op.operationId, params, status: res.status, body: res.status === 200 ? undefined : res.body })
        .toEqual({ op: op.operationId, params, status: 200, body: undefined });
    }
    return { queries, lists: queries.filter((q) => q.plan.source !== 'id' && q.plan.source !== 'unique') };
  }

  const names = (query: ObservedQuery) => [...query.plan.served, ...query.plan.filtered];

  /**
   * No query of the request scans, and no list query is the unfiltered request's plan (the same
   * index answering the same conditions) with the filter's conditions tested on each document it
   * reads: an index answers the filter, or a narrower one serves the query.
   */
  function problems(label: string, observed: Observed, baseline: Observed): string[] {
    const found = observed.queries.filter((q) => q.plan.source === 'scan').map((q) =>
      `${label}: ${q.collection} ${q.operation} scans (${JSON.stringify(q.filter)})`
    );
    for (const query of observed.lists) {
      const base = baseline.lists.find((q) => q.collection === query.collection && q.operation === query.operation);
      const added = names(query).filter((name) => !base || !names(base).includes(name));
      const sameAsUnfiltered = base !== undefined && base.plan.index === query.plan.index
        && query.plan.served.every((name) => base.plan.served.includes(name));
      if (
        added.length > 0 && added.every((name) => query.plan.filtered.includes(name))
        && (sameAsUnfiltered || query.plan.served.length === 0)
      ) {
        found.push(
          `${label}: ${query.collection} ${query.operation} tests ${
            added.join(', ')
          } on every document the unfiltered list reads (${JSON.stringify(query.plan)})`,
        );
      }
    }
    return found;
  }

  it('covers every list operation of the contract', () => {
    const covered = listOperations().filter((op) => !COMPUTED.has(op.operationId)).map((op) => op.operationId);
    for (
      const id of [
        'listTransactions',
        'listQuotes',
        'listCustomers',
        'listCustomerInternalAccounts',
        'listPlatformInternalAccounts',
        'listExternalAccounts',
        'listPlatformExternalAccounts',
        'listCards',
        'listWebhookDeliveries',
      ]
    ) expect(covered).toContain(id);
  });

  for (const op of listOperations().filter((candidate) => !COMPUTED.has(candidate.operationId))) {
    const filters = Object.keys(op.query!.properties).filter((name) => !NOT_FILTERS.has(name));
    if (filters.length === 0) continue;
    it(`${op.operationId}: each filter and each pair of filters`, async () => {
      const value = (name: string) => sampleValue(name, op.query!.properties[name], sample);
      const baseline = await observe(op, {}, false);
      const found = problems(`${op.operationId} unfiltered`, baseline, baseline);
      for (const name of filters) {
        found.push(...problems(`${op.operationId}?${name}`, await observe(op, { [name]: value(name) }), baseline));
      }
      // Pairs of filters (sortOrder orders, it does not filter: it was checked alone).
      const pairable = filters.filter((name) => name !== 'sortOrder');
      for (let i = 0; i < pairable.length; i++) {
        for (let j = i + 1; j < pairable.length; j++) {
          const [a, b] = [pairable[i], pairable[j]];
          // A pair: one condition may be tested on the candidates the other's index gives.
          found.push(
            ...problems(`${op.operationId}?${a}&${b}`, await observe(op, { [a]: value(a), [b]: value(b) }), baseline),
          );
        }
      }
      expect(found).toEqual([]);
    });
  }
});
