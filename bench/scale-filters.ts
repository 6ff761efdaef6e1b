import type { TSchema } from '@sinclair/typebox';
import { OPERATIONS } from '../gateway/contract/operation-registry';
import type { Operation } from '../gateway/contract/operation';
import type { createKeepAliveClient } from './keep-alive-client';

/**
 * Every documented filter of every list operation (from the contract, as the plan test reads it),
 * timed through the gateway at the scale benchmark's history size: each filter alone, with the
 * API's default page size, median of 7 after 2 unmeasured. The history (bench/scale.bench.ts) is
 * copies of one real payment, so a status other than theirs (FAILED) is the rare value a filter
 * must find without walking the others; COMPLETED is the common one.
 */
type Api = ReturnType<typeof createKeepAliveClient>;

export interface FilterTiming {
  request: string;
  medianMs: number;
  maxMs: number;
  rows: number;
  totalCount?: number;
}

export interface FilterContext {
  payments: number;
  /** Seeded customers' ids (`Customer:seed-N`, platformCustomerId `seed-N×10`). */
  customers: string[];
  /** The internal account every payment is sent from. */
  account: string;
}

/** The target every filter's median meets (issue targets, docs/embedded-store.md). */
export const FILTER_TARGET_MS = 20;

const NOT_FILTERS = new Set(['limit', 'cursor']);
const COMPUTED = new Set([
  'listExchangeRates',
  'listScaFactors',
  'listCredentials',
  'listSessions',
  'listDelegatedKeys',
]);

function listOperations(): Operation[] {
  return OPERATIONS.filter((op) =>
    op.method === 'get' && op.query && !op.agentAuth && !op.root && !op.path.includes('{')
    && ('cursor' in op.query.properties || op.operationId.startsWith('list')) && !COMPUTED.has(op.operationId)
  );
}

/** The values a filter is timed with: one each, two for a status (the rare and the common value). */
function valuesOf(name: string, schema: TSchema, context: FilterContext): string[] {
  const members = (schema.anyOf as TSchema[] | undefined)?.map((member) => member.const).filter((v) => v !== undefined)
    ?? (schema.enum as unknown[] | undefined);
  const customer = context.customers[Math.floor(context.customers.length / 3)];
  const middle = new Date(Date.now() - 200 * 24 * 3600_000).toISOString();
  if (name === 'status' && !members?.length) return ['FAILED', 'COMPLETED'];
  if (members?.length) return [String(members[0])];
  if (/(After|Before|Date)$/.test(name) || schema.format === 'date-time') return [middle];
  if (name === 'customerId' || name === 'cardholderId') return [customer];
  if (name === 'platformCustomerId') return [`seed-${Number(customer.split('-').pop()) * 10}`];
  if (
    /AccountId$/.test(name) || /AccountIdentifier$/.test(name) || name === 'accountIdentifier' || name === 'accountId'
  ) return [context.account];
  if (name === 'currency') return ['USD'];
  if (name === 'region') return ['US'];
  if (name === 'type') return ['OUTGOING'];
  if (name === 'sortOrder') return ['asc'];
  if (/^(is|has)[A-Z]/.test(name)) return ['true'];
  return [`probe-${name}`];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timeRequest(api: Api, path: string): Promise<FilterTiming | { request: string; status: number }> {
  const times: number[] = [];
  let last: { status: number; body: any } | undefined;
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    last = await api('GET', path);
    if (last.status !== 200) return { request: path, status: last.status };
    if (i >= 2) times.push(performance.now() - started);
  }
  const body = last!.body;
  return {
    request: path,
    medianMs: Number(median(times).toFixed(2)),
    maxMs: Number(Math.max(...times).toFixed(2)),
    rows: Array.isArray(body?.data) ? body.data.length : 0,
    ...(typeof body?.totalCount === 'number' ? { totalCount: body.totalCount } : {}),
  };
}

/** Times each documented filter of each list operation, prints the table, and answers it. */
export async function timeDocumentedFilters(api: Api, context: FilterContext): Promise<FilterTiming[]> {
  const timings: FilterTiming[] = [];
  const refused: string[] = [];
  for (const op of listOperations()) {
    const requests = [op.path];
    for (const name of Object.keys(op.query!.properties).filter((n) => !NOT_FILTERS.has(n))) {
      for (const value of valuesOf(name, op.query!.properties[name], context)) {
        requests.push(`${op.path}?${new URLSearchParams({ [name]: value })}`);
      }
    }
    for (const path of requests) {
      const timing = await timeRequest(api, path);
      if ('status' in timing) refused.push(`${timing.request} answered ${timing.status}`);
      else timings.push(timing);
    }
  }
  const width = Math.max(...timings.map((t) => t.request.length));
  console.log(`scale-filters at ${context.payments} payments (median / max of 7, ms; rows on the page; totalCount):`);
  for (const t of timings) {
    const flag = t.medianMs > FILTER_TARGET_MS ? `  over ${FILTER_TARGET_MS} ms` : '';
    console.log(
      `  ${t.request.padEnd(width)}  ${t.medianMs.toFixed(2).padStart(8)}  ${t.maxMs.toFixed(2).padStart(8)}  ${
        String(t.rows).padStart(3)
      }  ${t.totalCount ?? '-'}${flag}`,
    );
  }
  for (const line of refused) console.log(`  ${line}`);
  const over = timings.filter((t) => t.medianMs > FILTER_TARGET_MS).length;
  console.log(
    `scale-filters: ${timings.length} requests, ${over} over ${FILTER_TARGET_MS} ms, slowest median ${
      Math.max(...timings.map((t) => t.medianMs)).toFixed(2)
    } ms`,
  );
  return timings;
}
