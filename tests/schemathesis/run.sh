#!/usr/bin/env bash
# Runs schemathesis (PyPI) against the real `talent` binary (issue 6): starts `talent demo` on a
# fresh database (a SQLite file, or with `postgres` a new database on TEST_DATABASE_URL's server,
# dropped afterwards; issue 13) and a free port, creates one resource of each kind so that every
# operation can reach its success path, then runs every check with the fixed seed of
# schemathesis.toml; then test mode's operations again with a test key (a live key gets 403
# there). Exits non-zero on any failure.
# With several backends (`sqlite postgres`) the runs go side by side, each on its own demo, and
# their outputs are printed one after the other when both are done.
# Usage: tests/schemathesis/run.sh [path/to/talent] [sqlite|postgres]...
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="$(realpath "${1:-$root/target/debug/talent}")"
backend="${2:-sqlite}"
venv="${SCHEMATHESIS_VENV:-$root/target/schemathesis-venv}"
work="$(mktemp -d)"
pid=""
pgdb=""
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    if [ -n "$pgdb" ]; then psql -q "$TEST_DATABASE_URL" -c "DROP DATABASE IF EXISTS $pgdb WITH (FORCE)" >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# Pinned tools, installed once into a virtualenv under target/ (PyPI).
if [ ! -x "$venv/bin/schemathesis" ] || [ ! -x "$venv/bin/openapi-spec-validator" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        "schemathesis==4.32.5" "openapi-spec-validator==0.7.2"
fi

# The committed document must be a valid OpenAPI 3.1 document.
"$venv/bin/openapi-spec-validator" "$root/docs/openapi.json"

if [ "$#" -gt 2 ]; then
    shift
    status=0
    pids=()
    for b in "$@"; do
        "$0" "$bin" "$b" >"$work/$b.out" 2>&1 &
        pids+=("$!")
    done
    for i in "${!pids[@]}"; do
        wait "${pids[$i]}" || status=1
    done
    for b in "$@"; do cat "$work/$b.out"; done
    exit "$status"
fi

# Start the demo on a free port (port 0: the bound address is printed).
cd "$work"
# The D5 catalogue with budgets of 60,000/30,000 requests per minute (TALENT_PLANS, T54), and as
# many requests failing authentication per minute (the checks send many without a key).
plans='[{"id":"starter","apiAccess":false,"personLimit":50,"profileLimit":3,"orgPerMinute":120,"keyPerMinute":60,"orgOnlyPerMinute":60},
{"id":"professional","apiAccess":true,"personLimit":500,"profileLimit":25,"orgPerMinute":120,"keyPerMinute":60,"orgOnlyPerMinute":60},
{"id":"business","apiAccess":true,"personLimit":5000,"profileLimit":250,"orgPerMinute":60000,"keyPerMinute":30000,"orgOnlyPerMinute":30000}]'
case "$backend" in
    sqlite) db_url="sqlite://$work/talent.db" ;;
    postgres)
        if [ -z "${TEST_DATABASE_URL:-}" ]; then echo "schemathesis: postgres needs TEST_DATABASE_URL" >&2; exit 1; fi
        pgdb="talent_st_$(date +%s)_$$"
        psql -q "$TEST_DATABASE_URL" -c "CREATE DATABASE $pgdb" >/dev/null
        db_url="${TEST_DATABASE_URL%/*}/$pgdb"
        export TALENT_SECRET_KEY=5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2
        ;;
    *) echo "schemathesis: backend must be sqlite or postgres, not $backend" >&2; exit 2 ;;
esac
echo "schemathesis: $backend"
DATABASE_URL="$db_url" TALENT_LISTEN=127.0.0.1:0 TALENT_WEBHOOKS_ALLOW_INSECURE=1 \
    TALENT_PLANS="$plans" TALENT_RATE_LIMIT_IP_PER_MINUTE=60000 TALENT_LOG=warn "$bin" demo >"$work/demo.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    if grep -q "^API key: " "$work/demo.log" && grep -qE "https?://127\.0\.0\.1:[0-9]+" "$work/demo.log"; then break; fi
    sleep 0.2
done
key="$(sed -n 's/^API key: //p' "$work/demo.log" | head -n1)"
base="$(grep -oE "http://127\.0\.0\.1:[0-9]+" "$work/demo.log" | head -n1)"
if [ -z "$key" ] || [ -z "$base" ]; then
    echo "schemathesis: the demo did not start" >&2
    cat "$work/demo.log" >&2
    exit 1
fi

api() { # METHOD PATH [BODY] -> response body on stdout; fails on a non-2xx status
    curl -fsS -X "$1" -H "Authorization: Bearer $key" -H "Content-Type: application/json" \
        ${3:+--data "$3"} "$base$2"
}
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d' + sys.argv[1]))" "$1"; }

# One resource of each kind, for the operations that need an existing id.
persons="$(api GET "/api/v1/persons?assessmentStatus=completed&limit=1")"
export ST_PERSON_ID="$(field '["data"][0]["id"]' <<<"$persons")"
export ST_PROFILE_ID="$(api GET /api/v1/profiles | field '["data"][0]["id"]')"
export ST_INVITATION_ID="$(api POST /api/v1/invitations '{"email":"schemathesis@example.com","sendEmail":false}' | field '["id"]')"

# Test mode's operations answer a live key 403 only: a test key (made with the demo's admin
# token) and a person of the test data, for a second run of those operations alone.
admin="$(sed -n 's/^Admin token: //p' "$work/demo.log" | head -n1)"
user="$(api GET /api/v1/me | field '["userId"]')"
scopes='["organization:read","persons:read","persons:write","invitations:read","invitations:write","results:read","profiles:read"]'
test_key="$(curl -fsS -X POST -H "Authorization: Bearer $admin" -H "Content-Type: application/json" \
    --data "{\"name\":\"schemathesis\",\"mode\":\"test\",\"scopes\":$scopes}" \
    "$base/admin/v1/users/$user/api-keys" | field '["key"]')"
export ST_TEST_PERSON_ID="$(curl -fsS -X POST -H "Authorization: Bearer $test_key" -H "Content-Type: application/json" \
    --data '{"email":"schemathesis-test@example.com"}' "$base/api/v1/persons" | field '["id"]')"

# The served document is the committed one (the Rust test checks this too).
curl -fsS "$base/api/v1/openapi.json" | cmp -s - "$root/docs/openapi.json" || {
    echo "schemathesis: the served OpenAPI document differs from docs/openapi.json" >&2
    exit 1
}

"$venv/bin/schemathesis" --config-file "$root/tests/schemathesis/schemathesis.toml" run \
    "$base/api/v1/openapi.json" -H "Authorization: Bearer $key" --no-color \
    --report junit,har --report-junit-path "$root/target/schemathesis-$backend-junit.xml" \
    --report-har-path "$root/target/schemathesis-$backend.har"

echo "schemathesis: $backend, test mode's operations with a test key"
"$venv/bin/schemathesis" --config-file "$root/tests/schemathesis/schemathesis.toml" run \
    "$base/api/v1/openapi.json" -H "Authorization: Bearer $test_key" --no-color \
    --include-path-regex '^/api/v1/test/' --phases examples,coverage,fuzzing \
    --report junit --report-junit-path "$root/target/schemathesis-$backend-test-mode-junit.xml"
