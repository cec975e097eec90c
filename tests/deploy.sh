#!/usr/bin/env bash
# Checks the deployment recipes of docs/deployment.md that this machine can check without a
# container runtime or systemd (issue 17):
#  1. the Dockerfile's build context: every COPY source exists, and the workspace builds from
#     those paths alone (`cargo check --locked -p talent-app` in a copy holding only them);
#  2. the image's runtime: the binary started with the image's ENV and CMD (the database and port
#     moved into a temporary directory) passes the image's HEALTHCHECK command, and its
#     STOPSIGNAL stops it cleanly within the unit's TimeoutStopSec;
#  3. docs/examples/talent.env: refused while its placeholders are in it, and starts once the
#     secrets are filled in (its PostgreSQL and Redis replaced by this machine's);
#  4. docs/examples/talent.service: every variable its ExecStart needs is in the env file.
# Usage: tests/deploy.sh TALENT_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "$1")
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "deploy: $*" >&2; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# 1. Build context.
runtime=$(sed -n '/^FROM .* AS build/,/^FROM /p' Dockerfile)
ctx="$work/context"
mkdir -p "$ctx"
while read -r _ srcs; do
  read -ra parts <<<"$srcs"
  unset 'parts[${#parts[@]}-1]'
  for s in "${parts[@]}"; do
    [ -e "$s" ] || fail "Dockerfile copies $s, which does not exist"
    cp -r "$s" "$ctx/"
  done
done < <(grep -E '^COPY [^-]' <<<"$runtime")
grep -q -- '-p talent-app' <<<"$runtime" || fail "the build stage does not build talent-app"
# The image holds the stripped build (the `dist` profile: no debug info, no symbols).
grep -q -- '--profile dist' <<<"$runtime" || fail "the build stage does not build the dist profile"
grep -A4 '^\[profile.dist\]' Cargo.toml | grep -q '^strip = true' || fail "the dist profile is not stripped"
CARGO_TARGET_DIR="$PWD/target" cargo check -q --locked -p talent-app --manifest-path "$ctx/Cargo.toml" \
  || fail "the workspace does not build from the Dockerfile's COPY paths alone"
echo "deploy: the image builds from Cargo.toml, Cargo.lock, crates/ and migrations/"

# 2. The image's runtime settings.
image=$(sed -n '/^FROM debian/,$p' Dockerfile)
port=$(free_port)
env_args=()
while read -r _ kv; do
  k=${kv%%=*}; v=${kv#*=}
  case "$k" in
    TALENT_LISTEN) v="127.0.0.1:$port" ;;
    DATABASE_URL) v="sqlite://$work/talent.db" ;;
  esac
  env_args+=("$k=$v")
done < <(grep -E '^ENV ' <<<"$image")
cmd=$(sed -n 's/^CMD \["\(.*\)"\]$/\1/p' <<<"$image")
[ "$cmd" = serve ] || fail "CMD is not [\"serve\"]"
check=$(grep -A1 '^HEALTHCHECK' <<<"$image" | sed -n 's/^ *CMD //p' | sed "s/127.0.0.1:8080/127.0.0.1:$port/")
grep -q '^USER 10001' <<<"$image" || fail "the image does not run as a non-root user"
env -i PATH="$PATH" "${env_args[@]}" "$bin" "$cmd" > "$work/serve.log" 2>&1 &
pid=$!; pids+=("$pid")
healthy=0
for _ in $(seq 1 100); do
  if bash -c "$check" >/dev/null 2>&1; then healthy=1; break; fi
  sleep 0.2
done
[ "$healthy" = 1 ] || { cat "$work/serve.log"; fail "the HEALTHCHECK ($check) never passed"; }
grep -q '"level":"INFO"' "$work/serve.log" || fail "TALENT_LOG_FORMAT=json from the image is not in effect"
signal=$(sed -n 's/^STOPSIGNAL SIG//p' <<<"$image")
stop_secs=$(sed -n 's/^TimeoutStopSec=//p' docs/examples/talent.service)
kill -s "$signal" "$pid"
for _ in $(seq 1 $((stop_secs * 5))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$pid" 2>/dev/null; then fail "SIG$signal did not stop the service within ${stop_secs} s"; fi
wait "$pid" || fail "the service exited non-zero on SIG$signal"
echo "deploy: the image's ENV, CMD, HEALTHCHECK and STOPSIGNAL work"

# 3. The example environment file.
file_env=()
while IFS= read -r line; do
  [[ "$line" =~ ^[A-Z_]+= ]] || continue
  k=${line%%=*}; v=${line#*=}; v=${v#\"}; v=${v%\"}
  file_env+=("$k=$v")
done < docs/examples/talent.env
local_env=("TALENT_LISTEN=127.0.0.1:0" "TALENT_ADMIN_LISTEN=127.0.0.1:0" "DATABASE_URL=sqlite://$work/env.db"
  "TALENT_SMTP_URL=" "TALENT_RATE_LIMIT_STORE=")
if env -i PATH="$PATH" "${file_env[@]}" "${local_env[@]}" timeout 20 "$bin" serve > "$work/env.log" 2>&1; then
  fail "docs/examples/talent.env starts with its placeholders"
fi
grep -q 'TALENT_SECRET_KEY\|TALENT_ADMIN_TOKEN' "$work/env.log" || { cat "$work/env.log"; fail "the refusal does not name the placeholder"; }
filled=("TALENT_ADMIN_TOKEN=$(openssl rand -hex 32)" "TALENT_SECRET_KEY=$(openssl rand -hex 32)")
env -i PATH="$PATH" "${file_env[@]}" "${local_env[@]}" "${filled[@]}" "$bin" serve > "$work/env.log" 2>&1 &
pid=$!; pids+=("$pid")
for _ in $(seq 1 100); do grep -q 'Listening on' "$work/env.log" && break; sleep 0.2; done
grep -q 'Listening on' "$work/env.log" || { cat "$work/env.log"; fail "docs/examples/talent.env with secrets does not start"; }
kill "$pid"; wait "$pid" || true
echo "deploy: docs/examples/talent.env is refused with its placeholders and starts once filled in"

# 4. The unit reads that file and runs the binary the guide installs.
grep -q '^EnvironmentFile=/etc/talent/talent.env$' docs/examples/talent.service || fail "the unit does not read /etc/talent/talent.env"
grep -q '^ExecStart=/usr/local/bin/talent serve$' docs/examples/talent.service || fail "the unit does not run talent serve"
grep -q '^DynamicUser=yes$' docs/examples/talent.service || fail "the unit runs as root"
echo "deploy: ok"
