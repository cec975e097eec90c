#!/usr/bin/env bash
# The ATS guides' sandbox walks, run as written: for each guide of docs/connectors/ with a
# "## Try it in the sandbox" section, every shell block of that section in order against a fresh
# `talent demo` (what `make run` starts) on free ports. The first block's placeholder lines (KEY=,
# ADMIN=, API=, ATS_PORT=) get the demo's values; nothing else is changed. curl fails on any answer
# that is not 2xx unless its line announces the error ("# answers 4xx"). Afterwards what the
# stand-in ATS recorded is checked: the pushes each guide promises arrived, with their credentials.
# Usage: tests/guides.sh [path to the talent binary]   (KEEP=1 keeps the walks' files)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$repo/target/debug/talent}")
root=$(mktemp -d)
demo_pid=
cleanup() {
  [ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null || true
  pkill -f "HTTPServer\(\(\"127.0.0.1\", int\(sys.argv\[1\]\)\)" 2>/dev/null || true
  if [ -n "${KEEP:-}" ]; then echo "kept $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT

# shellcheck source=tests/demo.sh
walk() {
  local guide=$1 name
  name=$(basename "$guide" .md)
  work="$root/$name"
  mkdir -p "$work"
  cd "$work"
  . "$repo/tests/demo.sh"
  local ats_port
  ats_port=$(free_port)
  python3 "$repo/tests/blocks.py" "$guide" "Try it in the sandbox" 4 \
    KEY="$key" ADMIN="$admin" API="http://127.0.0.1:$port" ATS_PORT="$ats_port" > walk.sh
  if ! bash walk.sh > walk.out 2>&1; then
    cat walk.out
    echo "guides: a block of $name failed (above); the service's log:" >&2
    tail -20 demo.log >&2
    exit 1
  fi
  fail() { cat walk.out; echo "guides: $name: $*" >&2; exit 1; }
  # What the stand-in ATS records arrives asynchronously: wait up to 15 s for it.
  seen() {
    for _ in $(seq 1 150); do grep -q "$2" "$1" && return 0; sleep 0.1; done
    return 1
  }
  case $name in
    greenhouse)
      seen greenhouse.log '^PATCH /take_home_tests/42 Basic ' || fail "Greenhouse got no PATCH with Basic credentials"
      grep -q '"partner_status": "complete"' walk.out || fail "test_status did not read complete"
      grep -q '"partner_profile_url": "http' walk.out || fail "no report link"
      ;;
    ashby)
      seen ashby.log '"value": *"Started"' || fail "Ashby got no Started"
      seen ashby.log '"value": *"Completed"' || fail "Ashby got no Completed"
      grep -q 'already being assessed' walk.out || fail "the second start was not refused"
      ;;
    workable)
      seen workable.log '^PUT /assessments/99 Bearer your-workable-token ' || fail "Workable got no PUT with its token"
      seen workable.log '"status":"completed"' || fail "Workable got no completed result"
      ;;
    kombo)
      seen kombo.log '^PUT /assessment/packages Bearer your-kombo-key workday:acme .*"talent-assessment"' \
        || fail "Kombo got no packages with its key and integration id"
      seen kombo.log '^PUT /assessment/orders/kombo-order-1/result Bearer your-kombo-key workday:acme .*"COMPLETED"' \
        || fail "Kombo got no COMPLETED result"
      seen kombo.log 'a PDF True' || fail "the result carried no PDF report"
      grep -q '"message": "The X-Kombo-Signature does not match a connection"' walk.out \
        || fail "the wrong signature was not refused"
      ;;
  esac
  echo "guides: $name: $(grep -c '^--- ' walk.out) blocks ran as written"
  kill "$demo_pid" 2>/dev/null || true
  demo_pid=
  pkill -f "HTTPServer\(\(\"127.0.0.1\", int\(sys.argv\[1\]\)\)" 2>/dev/null || true
  cd "$root"
}

for g in "$repo"/docs/connectors/*.md; do
  grep -q '^## Try it in the sandbox' "$g" || continue
  walk "$g"
done
