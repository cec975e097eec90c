#!/usr/bin/env bash
# Lints docs/openapi.json with Redocly's `recommended` rules and Spectral's `spectral:oas` (both
# CLIs pinned in tests/lint/package-lock.json, installed on first use): any finding fails, errors,
# warnings and hints alike.
# Usage: tests/openapi-lint.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
lint="$repo/tests/lint"
if [ ! -x "$lint/node_modules/.bin/redocly" ] || [ ! -x "$lint/node_modules/.bin/spectral" ] || ! cmp -s "$lint/package-lock.json" "$lint/node_modules/.package-lock.json.installed"; then
  (cd "$lint" && npm ci --silent --no-audit --no-fund > /dev/null)
  cp "$lint/package-lock.json" "$lint/node_modules/.package-lock.json.installed"
fi
out=$(mktemp)
spectral=$(mktemp)
trap 'rm -f "$out" "$spectral"' EXIT
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1 \
  "$lint/node_modules/.bin/redocly" lint "$repo/docs/openapi.json" --extends=recommended --format=json > "$out" 2>/dev/null || true
python3 - "$out" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
problems = report.get("problems", [])
for p in problems:
    where = "; ".join(l.get("pointer", "") for l in p.get("location", []))
    print(f"openapi-lint: {p.get('severity')} {p.get('ruleId')}: {p.get('message')} at {where}")
totals = report.get("totals", {})
if problems or totals.get("errors", 0) or totals.get("warnings", 0):
    sys.exit(f"openapi-lint: {totals.get('errors', 0)} errors, {totals.get('warnings', 0)} warnings")
print("openapi-lint: Redocly recommended: 0 errors, 0 warnings")
PY

"$lint/node_modules/.bin/spectral" lint "$repo/docs/openapi.json" --ruleset "$lint/.spectral.yaml" \
  --format json --output "$spectral" --fail-severity hint > /dev/null 2>&1 || true
python3 - "$spectral" <<'PY'
import json, sys
try:
    findings = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    sys.exit(f"openapi-lint: Spectral gave no report: {e}")
for f in findings:
    print(f"openapi-lint: spectral {f.get('code')}: {f.get('message')} at {'.'.join(map(str, f.get('path', [])))}")
if findings:
    sys.exit(f"openapi-lint: Spectral spectral:oas: {len(findings)} findings")
print("openapi-lint: Spectral spectral:oas: 0 errors, 0 warnings")
PY
