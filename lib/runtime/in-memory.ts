/**
 * DATA_DIR's value that selects the in-memory engine (tests and benchmarks ask for it explicitly).
 * A module of its own: main.ts reads it before it loads any store engine.
 */
export const IN_MEMORY = ':memory:';
