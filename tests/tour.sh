#!/usr/bin/env bash
# The README's tour, run as written (issue 16): every shell block of "A five-minute tour", in
# order, against `talent demo` (what `make run` starts) on a fresh SQLite database and free ports.
# The first block's placeholder lines (KEY=, ADMIN=, API=, HOOK_PORT=) get the demo's values;
# nothing else is changed. curl fails on any answer that is not 2xx (--fail-with-body) unless its
# line announces the error ("# answers 4xx ..."). Afterwards the files the tour makes are checked:
# the report is a PDF, the receiver verified the events' signatures, the CSV import created its
# rows, the endpoint was removed.
# Usage: tests/tour.sh [path to the talent binary]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$repo/target/debug/talent}")
work=$(mktemp -d)
demo_pid=
cleanup() {
  [ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null || true
  pkill -f "HTTPServer\(\(\"127.0.0.1\", int\(sys.argv\[1\]\)\)" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The tour runs from the repository's root: its working directory here has what it uses of it.
cd "$work"
ln -s "$repo/docs" docs
mkdir -p target/debug
ln -s "$bin" target/debug/talent

# shellcheck source=tests/demo.sh
. "$repo/tests/demo.sh"
hook_port=$(free_port)

python3 "$repo/tests/blocks.py" "$repo/README.md" "A five-minute tour" 8 \
  KEY="$key" ADMIN="$admin" API="http://127.0.0.1:$port" HOOK_PORT="$hook_port" > tour-script.sh

if ! bash tour-script.sh > tour.out 2>&1; then
  cat tour.out
  echo "tour: a block failed (above); the service's log:" >&2
  tail -20 "$work/demo.log" >&2
  exit 1
fi
fail() { cat tour.out; echo "tour: $*" >&2; exit 1; }
[ "$(head -c 5 report.pdf)" = "%PDF-" ] || fail "report.pdf is not a PDF"
grep -q '^verified ping ' hooks.log || fail "the receiver got no verified ping"
grep -q '^verified assessment.completed ' hooks.log || fail "the receiver got no verified assessment.completed"
! grep -q '^REFUSED' hooks.log || fail "the receiver refused a delivery's signature"
grep -q '^204$' tour.out || fail "the endpoint was not removed"
grep -q '"mode": "test"' tour.out || fail "the tour did not run on a test key"
grep -q '"reminded":1}' tour.out || fail "the first clock step sent no reminder"
grep -q '"expired":1,' tour.out || fail "the second clock step expired no invitation"
grep -q '"status": "expired"' tour.out || fail "the invitation did not expire"
grep -q '"category":"high"' tour.out || fail "the steered completion did not reach a high match"
! sed -n "/^echo; echo '--- README.md block 4'$/,\$p" tour-script.sh | grep -q 'ADMIN\|admin/v1' ||
  fail "the tour uses the admin API after its test key"
grep -q 'created: 3, existing: 1, failed: 0' tour.out || fail "the CSV import did not create its rows"
cat tour.out
echo "tour: $(grep -c "^--- README.md block" tour.out) blocks ran as written"
