#!/usr/bin/env bash
# Debian packages the tests need, installed by `make test` first when missing and it can (root,
# apt-get present), as the schemathesis step installs its Python tools:
# - chromium and chromium-driver: the dashboard's browser test and the person pages' screenshots;
# - fonts-noto-cjk: the CJK font PDF reports embed for Chinese, Japanese and Korean text;
# - poppler-utils: pdftotext, which reads the reports' text back in the end-to-end tests.
# Otherwise it says what to install and fails, unless TALENT_SKIP_BROWSER=1 (the browser tests
# are then skipped; the other packages are still needed).
set -euo pipefail
missing=()
{ [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; } || [ "${TALENT_SKIP_BROWSER:-}" = "1" ] \
  || missing+=(chromium chromium-driver)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || missing+=(fonts-noto-cjk)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "test-deps: installing ${missing[*]} (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null; }
  exit 0
fi
echo "test-deps: the tests need Debian's ${missing[*]}:" >&2
echo "  sudo apt-get install ${missing[*]}   (TALENT_SKIP_BROWSER=1 skips the browser tests)" >&2
exit 1
