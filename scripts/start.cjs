'use strict';
/**
 * `npm start`: builds what changed (nothing on an unchanged tree, see ensure-built.cjs), then runs
 * `dist/main.js all` in this process, so signals reach it directly.
 */
const { join } = require('node:path');
const { ensureBuilt } = require('./ensure-built.cjs');

try {
  ensureBuilt();
} catch (err) {
  process.stderr.write(`cannot start: the build failed (${err instanceof Error ? err.message : String(err)})\n`);
  process.exit(1);
}
process.argv.splice(2, Infinity, process.argv[2] ?? 'all');
require(join(__dirname, '..', 'dist', 'main.js'));
