import { Context } from 'mingo';

/*
 * mingo's subpath modules are required directly because the public entry points rebuild their
 * whole operator context on every call (about 140µs per update, 35µs per query). tsconfig's
 * node10 resolution ignores package "exports", so the modules are typed from their d.ts files.
 */
const { Query } = require('mingo/query') as typeof import('mingo/types/query');
const queryOperators = require('mingo/operators/query') as typeof import('mingo/types/operators/query');
const expressionOperators = require('mingo/operators/expression') as typeof import('mingo/types/operators/expression');
const updateOperators = require('mingo/operators/update') as typeof import('mingo/types/operators/update');

type UpdateOperator = (expr: Record<string, unknown>) => (doc: Record<string, unknown>) => string[];

const context = Context.init({ query: queryOperators, expression: expressionOperators });

type Tester = { test(doc: unknown): boolean };

function compileWithMingo(filter: Record<string, unknown>): Tester {
  const query = new Query(filter, { context });
  return { test: (doc) => query.test(doc as Record<string, unknown>) };
}

const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * A filter made only of equalities of field paths to strings, numbers and booleans (`{_id, platformId,
 * version}`, the shape of most point reads and conditional writes) is tested without compiling a
 * mingo query: a document whose path walks only through plain objects to a scalar or nothing
 * matches exactly when every value is strictly equal. Any other shape on the way (an array, a
 * date, any other object) is left to mingo, compiled on first need.
 */
function compileEqualities(filter: Record<string, unknown>): Tester | undefined {
  const entries = Object.entries(filter);
  if (!entries.every(([path, value]) => path !== '' && !path.startsWith('$') && isScalar(value))) return undefined;
  const paths = entries.map(([path, value]) => ({ parts: path.split('.'), value }));
  let fallback: Tester | undefined;
  return {
    test(doc) {
      for (const { parts, value } of paths) {
        let current: unknown = doc;
        for (const part of parts) {
          if (current === null || current === undefined || typeof current !== 'object') {
            current = undefined;
            break;
          }
          if (Array.isArray(current) || Object.getPrototypeOf(current) !== Object.prototype) return (fallback ??= compileWithMingo(filter)).test(doc);
          current = (current as Record<string, unknown>)[part];
        }
        if ((current !== null && typeof current === 'object') || typeof current === 'bigint') return (fallback ??= compileWithMingo(filter)).test(doc);
        if (current !== value) return false;
      }
      return true;
    },
  };
}

/** The parts of mingo the embedded store uses: MongoDB's query language and update operators. */
export const mingoEngine = {
  compileFilter(filter: Record<string, unknown>): Tester {
    return compileEqualities(filter) ?? compileWithMingo(filter);
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
