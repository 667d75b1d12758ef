#!/usr/bin/env bash
# Debian packages the tests (nginx: in front of the edge, as users put it)
# and `npm run bench` (wrk) need: installs the missing ones when it can (root
# with apt-get), otherwise stops saying exactly what to install.
set -euo pipefail

declare -A PACKAGE_OF=([redis-server]=redis-server [kcat]=kcat [chromium]=chromium [wrk]=wrk [nginx]=nginx-light)
missing=()
for bin in "${!PACKAGE_OF[@]}"; do
  command -v "$bin" >/dev/null 2>&1 || missing+=("${PACKAGE_OF[$bin]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "missing Debian packages; install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
