#!/usr/bin/env bash
# The project's test command (`npm test`): generate code, type-check, run every jest suite.
# The Kafka contract suite starts librdkafka's mock cluster itself (installing it if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent generate
npx tsc --noEmit -p .
npx jest --ci "$@"
