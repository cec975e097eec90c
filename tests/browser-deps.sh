#!/usr/bin/env bash
# The dashboard's browser test (issue 18) drives Debian's Chromium through chromedriver. `make test`
# runs this first: it installs chromium and chromium-driver with apt when they are missing and it
# can (root, apt-get present), as the schemathesis step installs its Python tools. Otherwise it
# says what to install and fails, unless TALENT_SKIP_BROWSER=1 (the browser test is then skipped).
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  exit 0
fi
if [ "${TALENT_SKIP_BROWSER:-}" = "1" ]; then
  echo "browser-deps: chromium/chromedriver missing; TALENT_SKIP_BROWSER=1 skips the browser test"
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "browser-deps: installing chromium and chromium-driver (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q chromium chromium-driver >/dev/null; }
  exit 0
fi
echo "browser-deps: the dashboard's browser test needs Debian's chromium and chromium-driver:" >&2
echo "  sudo apt-get install chromium chromium-driver   (or TALENT_SKIP_BROWSER=1 make test)" >&2
exit 1
