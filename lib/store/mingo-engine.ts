import { compileScalarFilter } from './scalar-filter';

/*
 * mingo's subpath modules are required directly because the public entry points rebuild their
 * whole operator context on every call (about 140µs per update, 35µs per query). tsconfig's
 * node10 resolution ignores package "exports", so the modules are typed from their d.ts files.
 */
const { Context } = require('mingo/core') as typeof import('mingo/types/core');
const { Query } = require('mingo/query') as typeof import('mingo/types/query');
const queryOperators = require('mingo/operators/query') as typeof import('mingo/types/operators/query');
const updateOperators = require('mingo/operators/update') as typeof import('mingo/types/operators/update');

type UpdateOperator = (expr: Record<string, unknown>) => (doc: Record<string, unknown>) => string[];

const context = Context.init({ query: queryOperators });

// Aggregation expressions serve `$expr` only, which the services do not use: they are loaded on the
// first filter that holds one, not with the store (they are most of mingo's loading time at start).
let expressionsAdded = false;
function addExpressionsFor(filter: unknown): void {
  if (expressionsAdded || !holdsKey(filter, '$expr')) return;
  context.addExpressionOps(require('mingo/operators/expression') as typeof import('mingo/types/operators/expression'));
  expressionsAdded = true;
}

function holdsKey(value: unknown, key: string): boolean {
  if (Array.isArray(value)) return value.some((v) => holdsKey(v, key));
  if (!value || typeof value !== 'object' || value instanceof Date || value instanceof RegExp) return false;
  return Object.entries(value).some(([k, v]) => k === key || holdsKey(v, key));
}

type Tester = { test(doc: unknown): boolean };

function compileWithMingo(filter: Record<string, unknown>): Tester {
  addExpressionsFor(filter);
  const query = new Query(filter, { context });
  return { test: (doc) => query.test(doc as Record<string, unknown>) };
}

/**
 * A filter of scalar conditions (`{_id, platformId, version}`, `{_id, used: {$lte: n}, payments:
 * {$ne: id}}`: the shape of most point reads and conditional writes) is tested without compiling
 * a mingo query; a document holding a shape it does not model there is left to mingo, compiled on
 * first need.
 */
function compileScalar(filter: Record<string, unknown>): Tester | undefined {
  const scalar = compileScalarFilter(filter);
  if (!scalar) return undefined;
  let fallback: Tester | undefined;
  return {
    test(doc) {
      return scalar(doc) ?? (fallback ??= compileWithMingo(filter)).test(doc);
    },
  };
}

/** The parts of mingo the embedded store uses: MongoDB's query language and update operators. */
export const mingoEngine = {
  compileFilter(filter: Record<string, unknown>): Tester {
    return compileScalar(filter) ?? compileWithMingo(filter);
  },

  hasUpdateOperator(op: string): boolean {
    return typeof (updateOperators as unknown as Record<string, unknown>)[op] === 'function';
  },

  /** Applies one update operator ($set, $inc, ...) in place; returns whether the document changed. */
  applyUpdateOperator(op: string, expr: Record<string, unknown>, doc: Record<string, unknown>): boolean {
    const operator = (updateOperators as unknown as Record<string, UpdateOperator>)[op];
    if (typeof operator !== 'function') throw new Error(`Unknown modifier: ${op}`);
    return operator(expr)(doc).length > 0;
  },
};
