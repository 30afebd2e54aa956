#!/usr/bin/env bash
# The load test of `alea serve` (a benchmark, not a timed test): starts the server on a free port,
# posts a Mare Nostrum field battle 2,000 times from 8 concurrent clients, prints p50/p95/p99 and
# stops the server it started. Target: p95 under 20 ms for exact Mare Nostrum field battles.
#   scripts/serve-load.sh [battle file] [requests] [clients]
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-experiments/battles/field.toml}
cargo build --release --quiet
log=$(mktemp)
target/release/alea serve --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q '^alea serve: http' "$log" && break; sleep 0.1; done
url=$(sed -n 's/^alea serve: \(http[^ ]*\)\/ .*/\1/p' "$log")
[ -n "$url" ] || { cat "$log" >&2; exit 1; }
node scripts/serve-load.mjs "$url" "$file" "${2:-2000}" "${3:-8}"
