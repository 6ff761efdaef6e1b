import { performance } from 'node:perf_hooks';

/**
 * When each phase of the start was reached, in milliseconds since the process started, on every
 * thread: `node dist/main.js all` logs them in one line at debug level ("start-up timeline"), so a
 * slow start can be read phase by phase without a profiler (docs/startup.md).
 */
export interface StartMark {
  phase: string;
  /** Milliseconds since the process started. */
  ms: number;
}

const marks: StartMark[] = [];
// A worker thread's clock starts with the thread: it is given the process's start (epoch ms) instead.
let processStart = performance.timeOrigin;

/** The epoch time the process started, for a worker thread to pass to `useProcessStart`. */
export const processStartEpochMs = (): number => processStart;

export function useProcessStart(epochMs: number): void {
  processStart = epochMs;
}

export const sinceProcessStart = (): number => Math.round(performance.timeOrigin + performance.now() - processStart);

/** Records that `phase` was reached now (or at `ms` since the process started). */
export function markStart(phase: string, ms = sinceProcessStart()): void {
  marks.push({ phase, ms: Math.round(ms) });
}

/** The phases recorded on this thread so far, oldest first. */
export function startMarks(): StartMark[] {
  return [...marks];
}

/** Phases as one log field: `{ "<phase>": ms, ... }` in the order they were reached. */
export function timelineField(all: StartMark[]): Record<string, number> {
  return Object.fromEntries([...all].sort((a, b) => a.ms - b.ms).map((m) => [m.phase, m.ms]));
}
