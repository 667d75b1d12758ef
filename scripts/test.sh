#!/usr/bin/env bash
# The one test command (README): installs what it needs on a fresh machine,
# then type-checks, lints and runs every jest tier against real engines.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-system-deps.sh

# npm packages: install when missing or when the lock file changed since.
# `npm install` (not `npm ci`): it keeps the locked versions but tolerates
# chdb's optional per-platform packages that the registry does not publish.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund
fi

echo "== typecheck"; npx tsc -p tsconfig.json --noEmit
echo "== lint"; npx eslint --max-warnings 0 .
echo "== tests"
mkdir -p .tmp
status=0
npx jest --ci --maxWorkers=2 --json --outputFile=.tmp/jest-results.json "$@" || status=$?
# One plain closing line, whatever reads the output.
node -e 'const r = require("./.tmp/jest-results.json"); console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`)' || true
exit "$status"
