#!/usr/bin/env bash
# The Python and TypeScript SDKs: the committed code is what the generators make of
# docs/openapi.json today; each SDK installs the way its ecosystem does (pip into a fresh virtual
# environment; npm pack, then the tarball installed into an empty project and imported from plain
# Node) and works against `talent demo` (an import, a list walked page by page, results, a real
# webhook delivery verified with its hand-written helper).
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

# Each SDK as its ecosystem installs it, and the walk run against the installed package, away
# from the source tree.
echo "sdks: python: pip install sdks/python into a fresh virtual environment"
files() { (cd "$repo/sdks/python" && find . -not -path '*/__pycache__*' | sort); }
before=$(files)
python3 -m venv "$work/py"
"$work/py/bin/pip" install -q --disable-pip-version-check "$repo/sdks/python"
# The receiver's side: deliveries verify with the Standard Webhooks library too.
"$work/py/bin/pip" install -q --disable-pip-version-check "$(grep '^standardwebhooks==' "$repo/sdks/requirements.txt")"
[ "$before" = "$(files)" ] || { diff <(echo "$before") <(files); echo "sdks: installing left files in sdks/python" >&2; exit 1; }
cp "$repo/sdks/python/tests/test_demo.py" "$work/"
(cd "$work" && PYTHONDONTWRITEBYTECODE=1 "$work/py/bin/python" -m unittest -v test_demo)
echo "sdks: typescript: the sources against the demo"
(cd "$repo/sdks/typescript" && node_modules/.bin/tsc --noEmit -p . && node --import tsx --test test/demo.test.ts)
echo "sdks: typescript: npm pack, then npm install of the tarball into an empty project"
(cd "$repo/sdks/typescript" && npm pack --silent --pack-destination "$work" > /dev/null)
mkdir "$work/ts-app"
cp "$repo/sdks/typescript/test/packed.mjs" "$work/ts-app/"
(cd "$work/ts-app" && echo '{"name": "app", "private": true, "type": "module"}' > package.json \
  && npm install --silent --no-audit --no-fund "$work"/talent-api-client-*.tgz && node packed.mjs)
echo "sdks: both SDKs are current and pass against the demo"
