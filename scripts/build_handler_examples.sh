#!/usr/bin/env bash
# Builds the TypeScript handler example (examples/handlers/typescript) as its
# plugin library's docs do: npm ci from the committed package-lock.json, then
# tsc. Idempotent: npm ci runs again only when the lock file changed, tsc
# only when the sources did. Without node and npm it says so and builds
# nothing (the example's tests then skip, saying why).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=examples/handlers/typescript
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "handler examples: node or npm is not installed: the TypeScript example is not built (its tests skip)"
  exit 0
fi
lock=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$dir/node_modules/.stacksim-lock" 2>/dev/null || true)" != "$lock" ]; then
  echo "handler examples: npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock" > "$dir/node_modules/.stacksim-lock"
fi
src=$(cat "$dir/package-lock.json" "$dir/tsconfig.json" "$dir"/src/*.ts | sha256sum | cut -d' ' -f1)
if [ "$(cat "$dir/dist/.stacksim-build" 2>/dev/null || true)" != "$src" ]; then
  echo "handler examples: tsc in $dir"
  (cd "$dir" && ./node_modules/.bin/tsc)
  echo "$src" > "$dir/dist/.stacksim-build"
fi
