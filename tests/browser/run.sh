#!/usr/bin/env bash
# The real-browser test of `alea serve` (called by .ci/run): installs Debian's chromium and
# chromium-driver if missing, starts the server and chromedriver on free ports, drives the page
# (tests/browser/drive.mjs) and stops what it started, by PID.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
        echo "tests/browser/run.sh: install chromium and chromium-driver (apt-get, as root)" >&2
        exit 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
command -v node >/dev/null || { echo "tests/browser/run.sh: needs node (18 or later)" >&2; exit 1; }

cargo build --release --quiet
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

target/release/alea serve --port 0 >"$work/serve.log" 2>&1 &
pids+=($!)
free_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
chromedriver --port="$free_port" >"$work/driver.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
    grep -q '^alea serve: http' "$work/serve.log" && curl -sf "http://127.0.0.1:$free_port/status" >/dev/null && break
    sleep 0.1
done
server=$(sed -n 's/^alea serve: \(http[^ ]*\)\/ .*/\1/p' "$work/serve.log")
[ -n "$server" ] || { cat "$work/serve.log" >&2; exit 1; }
node tests/browser/drive.mjs "$server" "http://127.0.0.1:$free_port" "$work/profile"
