#!/usr/bin/env bash
# Jest on the pinned Node: NestJS 12 and some of its dependencies ship only
# ES modules, which our CommonJS code require()s. Node 24 does that natively;
# Jest's own module loader does it on Node 24.9+ through vm modules, still
# behind a flag (its workers inherit it). The flag's warning says nothing new.
exec node --experimental-vm-modules --disable-warning=ExperimentalWarning "$(dirname "$0")/../node_modules/jest/bin/jest.js" "$@"
