#!/usr/bin/env bash
# Verifies every Standard Webhooks delivery the end-to-end tests received (logged by their
# receiver to the file given) with the `standardwebhooks` library from PyPI, pinned in
# sdks/requirements.txt, installed into target/standardwebhooks-venv the first time.
# Usage: tests/standard-webhooks.sh LOG [MIN_DELIVERIES]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
log=$1
least=${2:-50}
venv="$repo/target/standardwebhooks-venv"
pin=$(grep '^standardwebhooks==' "$repo/sdks/requirements.txt")
if ! "$venv/bin/pip" show -q standardwebhooks > /dev/null 2>&1 || \
   [ "$("$venv/bin/pip" show standardwebhooks | sed -n 's/^Version: //p')" != "${pin#standardwebhooks==}" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$pin"
fi
"$venv/bin/python" "$repo/tests/standard-webhooks/verify.py" "$log" "$least"
