#!/usr/bin/env bash
# `npm run test:mongo`: the suites that need a MongoDB server (MONGODB_URI), one at a time; they create and drop
# databases of their own.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${MONGODB_URI:-}" ]; then
  echo 'test:mongo: set MONGODB_URI to a MongoDB server it may create and drop databases on' >&2
  exit 2
fi
npx jest --ci --forceExit --runInBand lib/store/mongo-document-store.test.ts \
  services/accounts/adapters/gridfs-document-storage.test.ts test/operations/mongodb-system.test.ts
