#!/usr/bin/env bash
# The one test command (README): installs what it needs on a fresh machine,
# then type-checks, lints and runs every jest tier against real engines.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh test

echo "== node $(node --version)"

mkdir -p .tmp
rm -f .tmp/jest-unit-results.json .tmp/jest-results.json .tmp/vitest-results.json .tmp/checks.log
status=0

# The unit tier first: it starts no engine and needs no fresh process per
# file, so its own run keeps its workers (jest.config.js recycles them after
# every file for the engines' sake): about a minute instead of two.
echo "== unit tests"
bash scripts/jest.sh --ci --maxWorkers=2 --selectProjects unit --workerIdleMemoryLimit=4GB --passWithNoTests --json --outputFile=.tmp/jest-unit-results.json "$@" || status=$?

# The checks that need no engine run beside the engine tiers, which leave
# about a third of two cores idle while they wait on engines and processes;
# one after another, into one report printed after the tiers. The dashboard is
# a browser app (DOM, JSX): a tsconfig of its own, and Vitest with its own Vite
# config.
check() {
  local name="$1"; shift
  echo "== $name"
  if "$@"; then echo "-- $name: ok"; else echo "-- $name: FAILED"; return 1; fi
}
(
  failed=0
  check typecheck npx tsc -p tsconfig.json --noEmit || failed=1
  check typecheck-dashboard npx tsc -p apps/dashboard/tsconfig.json --noEmit || failed=1
  check lint npx eslint --max-warnings 0 . || failed=1
  check dashboard-unit-tests npx vitest run --config apps/dashboard/vite.config.ts --reporter=dot --reporter=json --outputFile.json="$PWD/.tmp/vitest-results.json" || failed=1
  exit "$failed"
) > .tmp/checks.log 2>&1 &
checking=$!

echo "== integration and end-to-end tests (typecheck, lint and the dashboard's unit tests beside them)"
bash scripts/jest.sh --ci --maxWorkers=2 --selectProjects int e2e --passWithNoTests --json --outputFile=.tmp/jest-results.json "$@" || status=$?

wait "$checking" || status=1
cat .tmp/checks.log

# One plain closing line, whatever reads the output: the three runs' counts added up.
node -e '
  const read = (f) => { try { return require(f); } catch { return {}; } };
  const runs = ["jest-unit-results", "jest-results", "vitest-results"].map((name) => read(`./.tmp/${name}.json`));
  const n = (k) => runs.reduce((sum, run) => sum + (run[k] ?? 0), 0);
  console.log(`tests: ${n("numPassedTests")} passed, ${n("numFailedTests")} failed, ${n("numPendingTests")} skipped`);
' || true
exit "$status"
