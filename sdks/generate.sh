#!/usr/bin/env bash
# Generates the Python and TypeScript SDKs from docs/openapi.json with well-kept generators:
# openapi-python-client (PyPI) into sdks/python/talent_api, openapi-typescript (npm)
# into sdks/typescript/src/schema.ts. `make sdks` runs it; tests/sdks.sh checks that the
# committed SDKs are what it generates.
# Usage: sdks/generate.sh [output directory, default: sdks]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$repo/sdks}")
venv="$repo/target/sdk-venv"
if [ ! -x "$venv/bin/openapi-python-client" ] || ! cmp -s "$repo/sdks/requirements.txt" "$venv/requirements.txt"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$repo/sdks/requirements.txt"
  cp "$repo/sdks/requirements.txt" "$venv/requirements.txt"
fi
# Python: the package alone (no project metadata; sdks/python/pyproject.toml is ours).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && PATH="$venv/bin:$PATH" "$venv/bin/openapi-python-client" generate --path "$repo/docs/openapi.json" \
  --config "$repo/sdks/python/config.yaml" --meta none --output-path "$tmp/talent_api" > "$tmp/python.log" 2>&1) \
  || { cat "$tmp/python.log"; exit 1; }
mkdir -p "$out/python"
rm -rf "$out/python/talent_api"
cp -r "$tmp/talent_api" "$out/python/talent_api"
# TypeScript: the types of every path and schema; openapi-fetch is the runtime.
if [ ! -x "$repo/sdks/typescript/node_modules/.bin/openapi-typescript" ]; then
  (cd "$repo/sdks/typescript" && npm ci --silent --no-audit --no-fund > /dev/null)
fi
mkdir -p "$out/typescript/src"
"$repo/sdks/typescript/node_modules/.bin/openapi-typescript" "$repo/docs/openapi.json" -o "$out/typescript/src/schema.ts" > /dev/null
