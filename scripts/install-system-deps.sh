#!/usr/bin/env bash
# Debian packages the project uses, by what runs:
#   test   everything the tests and `npm run bench` start (redis-server, kcat,
#          chromium, wrk, nginx in front of the edge as users put it); stops,
#          saying exactly what to install, when it cannot install them.
#   start  chromium only (`npm start` renders pages with it); without it,
#          says so and lets the service start: renders fail and are retried.
# Installs the missing ones when it can (root with apt-get).
set -euo pipefail
mode="${1:-test}"

declare -A PACKAGE_OF=([chromium]=chromium)
if [ "$mode" = test ]; then
  PACKAGE_OF+=([redis-server]=redis-server [kcat]=kcat [wrk]=wrk [nginx]=nginx-light)
fi
missing=()
for bin in "${!PACKAGE_OF[@]}"; do
  command -v "$bin" >/dev/null 2>&1 || missing+=("${PACKAGE_OF[$bin]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian packages: ${missing[*]}"
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
    exit 0
  fi
  [ "$mode" = test ] && exit 1
fi
if [ "$mode" = start ]; then
  echo "Chromium is missing, so renders will fail (and be retried); pages a host fetches from its origin (bypass) still work." >&2
  echo "Install it with: sudo apt-get install -y ${missing[*]}" >&2
  exit 0
fi
echo "missing Debian packages; install them with: sudo apt-get install -y ${missing[*]}" >&2
exit 1
