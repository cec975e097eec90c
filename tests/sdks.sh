#!/usr/bin/env bash
# The Python and TypeScript SDKs (issue 16): the committed code is what the generators make of
# docs/openapi.json today, and each SDK works against `talent demo` (an import, a list walked page
# by page, results, a real webhook delivery verified with its hand-written helper).
# Usage: tests/sdks.sh [path to the talent binary]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$repo/target/debug/talent}")
work=$(mktemp -d)
demo_pid=
cleanup() {
  [ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# 1. Fresh: regenerate into a scratch directory and compare.
"$repo/sdks/generate.sh" "$work/generated"
diff -r "$repo/sdks/python/talent_api" "$work/generated/python/talent_api" > "$work/diff" \
  && diff "$repo/sdks/typescript/src/schema.ts" "$work/generated/typescript/src/schema.ts" >> "$work/diff" \
  || { head -40 "$work/diff"; echo "sdks: the committed SDKs are stale: run \`make sdks\` and commit" >&2; exit 1; }

# 2. Against the demo.
# shellcheck source=tests/demo.sh
. "$repo/tests/demo.sh"
export TALENT_URL="http://127.0.0.1:$port" TALENT_KEY="$key" TALENT_ADMIN="$admin"

echo "sdks: python"
(cd "$repo/sdks/python" && PYTHONPATH=. PYTHONDONTWRITEBYTECODE=1 "$repo/target/sdk-venv/bin/python" -m unittest -v tests/test_demo.py)
echo "sdks: typescript"
(cd "$repo/sdks/typescript" && node_modules/.bin/tsc --noEmit -p . && node --import tsx --test test/demo.test.ts)
echo "sdks: both SDKs are current and pass against the demo"
