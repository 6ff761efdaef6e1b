import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MISSING_REFERENCE, REFERENCE_OPENAPI } from './shared-reference.cjs';

const ROOT = join(__dirname, '..');
const COPIED = [
  'test/shared-reference.cjs',
  'test/jest-global-setup.cjs',
  'test/run-tests.sh',
  'test/load-aware-timeouts.ts',
  'jest.config.js',
];

/** A copy of the repository's test entry points in a fresh directory, with nothing beside it: no ../shared. */
function cloneWithoutShared(): { parent: string; repo: string } {
  const parent = mkdtempSync(join(tmpdir(), 'shared-reference-'));
  const repo = join(parent, 'grid-payments');
  for (const file of COPIED) {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(repo, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'), 'dir');
  writeFileSync(join(repo, 'test/any.test.ts'), "test('runs', () => expect(1).toBe(1));\n");
  return { parent, repo };
}

function run(repo: string, command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: repo, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

let clone: { parent: string; repo: string };
beforeAll(() => {
  clone = cloneWithoutShared();
});
afterAll(() => rmSync(clone.parent, { recursive: true, force: true }));

test('the path is ../shared/reference/grid-openapi.yaml beside the repository', () => {
  expect(REFERENCE_OPENAPI).toBe(join(ROOT, '..', 'shared', 'reference', 'grid-openapi.yaml'));
  expect(MISSING_REFERENCE).toMatch(/^tests need \.\.\/shared\/reference\/grid-openapi\.yaml \(.*README.*\)$/);
});

test('the check alone: one line and status 1 without the reference, silent and 0 with it', () => {
  expect(run(clone.repo, process.execPath, ['test/shared-reference.cjs'])).toEqual({
    status: 1,
    output: `${MISSING_REFERENCE}\n`,
  });
  mkdirSync(join(clone.parent, 'shared/reference'), { recursive: true });
  writeFileSync(join(clone.parent, 'shared/reference/grid-openapi.yaml'), 'openapi: 3.1.0\n');
  try {
    expect(run(clone.repo, process.execPath, ['test/shared-reference.cjs'])).toEqual({ status: 0, output: '' });
  } finally {
    rmSync(join(clone.parent, 'shared'), { recursive: true, force: true });
  }
});

test("npm test's script stops before building, with the one line", () => {
  expect(run(clone.repo, 'bash', ['test/run-tests.sh'])).toEqual({ status: 1, output: `${MISSING_REFERENCE}\n` });
});

test('jest on one file stops in its global setup, with the one line', () => {
  const jest = join(ROOT, 'node_modules/jest/bin/jest.js');
  expect(run(clone.repo, process.execPath, [jest, '--ci', 'test/any.test.ts'])).toEqual({
    status: 1,
    output: `${MISSING_REFERENCE}\n`,
  });
}, 150_000);
