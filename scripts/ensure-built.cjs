'use strict';
/**
 * Builds only what is out of date, and says so: gen/ is regenerated when proto/ (or the buf
 * configuration) is newer than gen/descriptor.binpb, and dist/ is compiled (incrementally, see
 * tsconfig.build.json) when a source is newer than the last successful compile. An unchanged tree
 * is checked in a few milliseconds and nothing runs.
 *
 * `node scripts/ensure-built.cjs` from the command line; `ensureBuilt()` from scripts/start.cjs.
 */
const { execFileSync } = require('node:child_process');
const { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');

const ROOT = join(__dirname, '..');
const DESCRIPTOR = join(ROOT, 'gen', 'descriptor.binpb');
/** Written after a successful compile, dated when that compile started. */
const COMPILED = join(ROOT, 'dist', '.compiled');
const VALIDATORS = join(ROOT, 'dist', 'gateway', 'contract', 'contract-validators.generated.js');
/**
 * The dashboard's front end (dashboard/), built by Vite into dist/dashboard, which the gateway serves at /dashboard.
 */
const DASHBOARD_INPUTS = ['dashboard', 'package-lock.json'];
const DASHBOARD_BUILT = join(ROOT, 'dist', 'dashboard', 'index.html');

const PROTO_INPUTS = ['proto', 'buf.yaml', 'buf.gen.yaml', 'buf.lock'];
/** What tsconfig.build.json includes, and the configuration that shapes its output. */
const SOURCE_INPUTS = [
  'lib',
  'gen',
  'services',
  'gateway',
  'bench',
  'main.ts',
  'system.ts',
  'services-thread.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
];
/** What tsconfig.build.json excludes: changing these never changes dist/. */
const NOT_COMPILED = /(\.test\.ts|\.contract\.ts|\.fixture\.ts|\/test-fixtures\/.*)$/;

/** Every file under the given paths (relative to the project) accepted by `keep`, with its mtime. */
function filesOf(paths, keep) {
  const found = [];
  const visit = (path) => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return;
    } // an optional input (buf.lock) may be missing
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (keep(path)) {
      found.push({ path: relative(ROOT, path), mtimeMs: stat.mtimeMs });
    }
  };
  for (const p of paths) visit(join(ROOT, p));
  return found;
}

function mtimeOf(path) {
  return existsSync(path) ? statSync(path).mtimeMs : -Infinity;
}

/** The inputs newer than `outputMs`, named for the message (the first few). */
function changedSince(outputMs, files) {
  const changed = files.filter((f) => f.mtimeMs > outputMs).map((f) => f.path);
  const shown = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
  return { count: changed.length, shown };
}

function run(command, args) {
  execFileSync(command, args, { cwd: ROOT, stdio: 'inherit' });
}

/**
 * Regenerates and compiles what changed. Answers what it did: 'current', or the steps it ran.
 * Throws when a step fails (the caller stops; nothing stale is started).
 */
function ensureBuilt(say = (line) => process.stderr.write(`${line}\n`)) {
  const started = Date.now();
  const steps = [];
  const protos = changedSince(mtimeOf(DESCRIPTOR), filesOf(PROTO_INPUTS, () => true));
  if (protos.count > 0) {
    say(`building: ${protos.shown} changed since gen/ was generated: regenerating gen/`);
    run('npm', ['run', '--silent', 'generate']);
    steps.push('generate');
  }
  const sources = changedSince(
    mtimeOf(COMPILED),
    filesOf(SOURCE_INPUTS, (p) => /\.(ts|json)$/.test(p) && !NOT_COMPILED.test(p)),
  );
  if (sources.count > 0) {
    say(`building: ${sources.shown} changed since the last compile: compiling (incremental)`);
    const compileStarted = new Date();
    run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json']);
    writeFileSync(COMPILED, '');
    // Dated when the compile started: a source saved during the compile is still seen as newer.
    utimesSync(COMPILED, compileStarted, compileStarted);
    steps.push('compile');
  }
  // The request validators, compiled ahead of time from the compiled contract
  // (gateway/contract/compiled-validators.ts).
  if (steps.includes('compile') || !existsSync(VALIDATORS)) {
    run(process.execPath, [join(ROOT, 'dist', 'gateway', 'contract', 'compiled-validators.js')]);
    steps.push('validators');
  }
  // The compiled benchmarks load the test harness, which takes the reference's path from this plain
  // script; tsc reads its declaration and does not emit it, so it is copied beside the compiled tests.
  // (The image's build context has no test/: nothing to copy there.)
  const referenceScript = join(ROOT, 'dist', 'test', 'shared-reference.cjs');
  const referenceSource = join(ROOT, 'test', 'shared-reference.cjs');
  if (existsSync(referenceSource) && (steps.includes('compile') || !existsSync(referenceScript))) {
    mkdirSync(dirname(referenceScript), { recursive: true });
    copyFileSync(referenceSource, referenceScript);
  }
  const dashboard = changedSince(mtimeOf(DASHBOARD_BUILT), filesOf(DASHBOARD_INPUTS, () => true));
  if (dashboard.count > 0) {
    say(`building: ${dashboard.shown} changed since the dashboard was built: building it (vite)`);
    run(process.execPath, [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--logLevel',
      'warn',
      '--config',
      join(ROOT, 'dashboard', 'vite.config.mjs'),
    ]);
    steps.push('dashboard');
  }
  if (steps.length === 0) say(`build is current (checked in ${Date.now() - started} ms)`);
  return steps.length === 0 ? 'current' : steps;
}

module.exports = { ensureBuilt };

if (require.main === module) {
  try {
    ensureBuilt();
  } catch (err) {
    process.stderr.write(`build failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
