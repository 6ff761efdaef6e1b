'use strict';
/**
 * The reference OpenAPI the tests read: Grid's public document, kept outside this repository in
 * ../shared/reference (CI's fresh clone has ../shared beside it). Every test reads it through
 * REFERENCE_OPENAPI. `npm test` (test/run-tests.sh) and jest's global setup run this check first,
 * so a missing reference stops the run at once with one line instead of failing deep in a suite.
 * Run alone: `node test/shared-reference.cjs` exits 1 with that line when the file is missing.
 */
const { existsSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

// This file runs from test/, or from dist/test/ where the build copies it for the compiled benchmarks.
const REPOSITORY = basename(dirname(__dirname)) === 'dist' ? join(__dirname, '..', '..') : join(__dirname, '..');
const REFERENCE_OPENAPI = join(REPOSITORY, '..', 'shared', 'reference', 'grid-openapi.yaml');
const MISSING_REFERENCE = 'tests need ../shared/reference/grid-openapi.yaml'
  + ' (the reference OpenAPI beside this repository; see README, "Run the tests")';

/** The one line to print when the reference is missing, or undefined when it is there. */
function missingReference() {
  return existsSync(REFERENCE_OPENAPI) ? undefined : MISSING_REFERENCE;
}

/** Prints the line and ends the process with status 1 when the reference is missing. */
function requireReference() {
  const line = missingReference();
  if (line === undefined) return;
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

module.exports = { REFERENCE_OPENAPI, MISSING_REFERENCE, missingReference, requireReference };

if (require.main === module) requireReference();
