#!/usr/bin/env bash
# The one test command (README): installs what it needs on a fresh machine,
# then type-checks, lints and runs every jest tier against real engines.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh test

echo "== node $(node --version)"

echo "== typecheck"; npx tsc -p tsconfig.json --noEmit
# The dashboard is a browser app (DOM, JSX): a tsconfig of its own.
npx tsc -p apps/dashboard/tsconfig.json --noEmit
echo "== lint"; npx eslint --max-warnings 0 .
echo "== tests"
mkdir -p .tmp
status=0
bash scripts/jest.sh --ci --maxWorkers=2 --json --outputFile=.tmp/jest-results.json "$@" || status=$?
# The dashboard's unit tests (jsdom, Testing Library): Vitest, with the dashboard's own Vite config.
echo "== dashboard unit tests"
npx vitest run --config apps/dashboard/vite.config.ts --reporter=dot --reporter=json --outputFile.json="$PWD/.tmp/vitest-results.json" || status=$?
# One plain closing line, whatever reads the output: jest's and vitest's counts added up.
node -e '
  const read = (f) => { try { return require(f); } catch { return {}; } };
  const j = read("./.tmp/jest-results.json"), v = read("./.tmp/vitest-results.json");
  const n = (k) => (j[k] ?? 0) + (v[k] ?? 0);
  console.log(`tests: ${n("numPassedTests")} passed, ${n("numFailedTests")} failed, ${n("numPendingTests")} skipped`);
' || true
exit "$status"
