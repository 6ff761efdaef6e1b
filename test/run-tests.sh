#!/usr/bin/env bash
# The project's test command (`npm test`): check that the reference OpenAPI is beside the repository,
# check that the code is formatted (dprint.json, a few seconds), generate code, build dist/ (the
# one-command system is tested as `npm start` runs it), type-check the tests too, run every jest suite.
# The Kafka contract suite starts librdkafka's mock cluster itself (installing it if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests read the reference OpenAPI in ../shared: without it, stop now with one line.
node test/shared-reference.cjs
# An unformatted file stops the run here, named, with the command that formats it.
node scripts/format.cjs --check
npm run --silent build
npx tsc --noEmit -p .
# --forceExit: a suite that leaves a handle open (a gRPC channel, a timer) must not keep CI waiting after the
# results are in.
npx jest --ci --forceExit "$@"
