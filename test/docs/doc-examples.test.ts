import { join } from 'node:path';
import { AddressInUseError } from '../../lib/runtime/start-checks';
import { startTestSystem } from '../system-harness';
import { freePort } from '../fixtures/free-port';
import { docFiles, readDoc, type DocFile } from './doc-examples';
import { commandsOf, runCommands, runProblems } from './doc-runner';

/**
 * Every fenced sh/bash/shell/console/http example of README.md and docs/**.md runs, file by file,
 * in one bash against a fresh sandbox (what `npm start` serves: the sandbox credentials, base
 * http://localhost:8080/2025-10-13 rewritten to the test's port). Each curl must answer the status
 * the doc shows (a 2xx when it shows none), the error code and the JSON members the doc shows.
 * A block preceded by `<!-- doc-test: skip (the reason) -->` is counted and listed, not run.
 * Conventions: docs/README.md "Running the examples".
 */
const ROOT = join(__dirname, '..', '..');
const docs = new Map<string, DocFile>(docFiles(ROOT).map((file) => [file, readDoc(ROOT, file)]));
const runnable = (doc: DocFile) => doc.blocks.filter((b) => !b.skip);
// DOC_TEST_ONLY=docs/a.md,docs/b.md runs those files only (while writing a doc)
const only = process.env.DOC_TEST_ONLY?.split(',').filter(Boolean);
const toRun = [...docs.values()].filter((doc) => runnable(doc).length > 0 && (!only || only.includes(doc.file))).map((
  doc,
) => doc.file);
const tally = { run: 0, skipped: [] as string[] };

test('every doc-test marker is well formed: a skip names its reason, a continued file exists', () => {
  const problems = [...docs.values()].flatMap((doc) => [
    ...doc.problems,
    ...(doc.continues && !docs.has(doc.continues)
      ? [`${doc.file}: continues ${doc.continues}, which is not a doc`]
      : []),
  ]);
  expect(problems).toEqual([]);
});

/**
 * A system on a port known before it starts. The services it starts first listen on ports the OS
 * picks, which may be the one just found free: then it starts again on another.
 */
async function startOnFreePort(
  attempts = 3,
): Promise<{ port: number; sys: Awaited<ReturnType<typeof startTestSystem>> }> {
  const port = await freePort();
  try {
    return { port, sys: await startTestSystem({ port, env: { PORT: String(port) } }) };
  } catch (err) {
    if (!(err instanceof AddressInUseError) || attempts <= 1) throw err;
    return startOnFreePort(attempts - 1);
  }
}

(toRun.length ? test.each(toRun) : test.skip.each(['(none: DOC_TEST_ONLY names no doc with examples)']))(
  'the examples of %s run as written',
  async (file) => {
    const doc = docs.get(file)!;
    const before = doc.continues ? runnable(docs.get(doc.continues)!) : [];
    const commands = commandsOf([...before, ...runnable(doc)]);
    // the port is known before the start: the links the server makes (hosted KYC, card reveal) name it, as under npm
    // start
    const { port, sys } = await startOnFreePort();
    try {
      const ports = { gateway: port, receiver: await freePort() };
      const run = await runCommands(commands, { ports, timeoutMs: 150_000 });
      tally.run += runnable(doc).length;
      expect(runProblems(commands, run, ports)).toEqual([]);
    } finally {
      await sys.stop();
    }
  },
  240_000,
);

afterAll(() => {
  for (const doc of docs.values()) {
    for (const b of doc.blocks) if (b.skip) tally.skipped.push(`${b.file}:${b.line}: ${b.skip}`);
  }
  process.stdout.write(
    `doc examples: ${tally.run} blocks run, ${tally.skipped.length} skipped:\n${
      tally.skipped.map((s) => `  ${s}`).join('\n')
    }\n`,
  );
});
