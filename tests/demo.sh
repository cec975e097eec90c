# Sourced by tests/tour.sh and tests/sdks.sh: starts `talent demo` ($bin) on a fresh SQLite
# database in $work and a free port; sets demo_pid, port, key (the "API key:" line) and admin (the
# "Admin token:" line). The caller's cleanup kills $demo_pid.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
DATABASE_URL="sqlite://$work/demo.db" TALENT_LISTEN="127.0.0.1:$port" "$bin" demo > "$work/demo.log" 2>&1 &
demo_pid=$!
for _ in $(seq 1 100); do grep -q '^Listening on' "$work/demo.log" && break; sleep 0.2; done
grep -q '^Listening on' "$work/demo.log" || { cat "$work/demo.log"; echo "the demo did not start" >&2; exit 1; }
key=$(sed -n 's/^API key: //p' "$work/demo.log")
admin=$(sed -n 's/^Admin token: //p' "$work/demo.log")
