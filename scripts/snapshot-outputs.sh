#!/usr/bin/env bash
# Runs every shipped experiment and battle file with a given alea binary and writes the results to one
# folder, so two builds can be compared byte for byte (refactors must not change a single number):
#   scripts/snapshot-outputs.sh target/release/alea /tmp/before
#   ... change the code, rebuild ...
#   scripts/snapshot-outputs.sh target/release/alea /tmp/after
#   scripts/compare-outputs.sh /tmp/before /tmp/after
# A third argument keeps only the experiments whose name matches a glob (no battle files then):
#   scripts/snapshot-outputs.sh target/release/alea /tmp/before 'imperios*'
# Game experiments run with --games 300 (tune and ladder with their files' sizes cut down the same way)
# so the whole snapshot takes minutes, not hours; the comparison is just as strict at that size.
set -euo pipefail
bin=$(realpath "$1"); out=$2; only=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
# The cut-down copies live at one fixed path, which the manifests record.
small=out/.snapshot-small
rm -rf "$out" "$small"; mkdir -p "$out/odds" "$small"
cd "$root"
for f in experiments/battles/*.toml; do
  [ -n "$only" ] && break
  name=$(basename "$f" .toml)
  "$bin" odds --file "$f" --json > "$out/odds/$name.json"
done
for f in experiments/*.toml; do
  name=$(basename "$f" .toml)
  # shellcheck disable=SC2053 # a glob on purpose
  [[ -z "$only" || $name == $only ]] || continue
  if grep -q '^\[game\]' "$f"; then
    "$bin" run "$f" --games 300 --quiet --threads 2 --out "$out/run" > /dev/null
    if grep -q '^\[tune\]' "$f" || grep -q '^\[ladder\]' "$f"; then
      # a small copy: fewer games, candidates and rounds, so the command finishes quickly
      sed -E -e 's/^games = [0-9]+/games = 40/' -e 's/^candidates = [0-9]+/candidates = 2/' \
             -e 's/^rounds = [0-9]+/rounds = 1/' -e 's/budget = [0-9]+/budget = 4/g' \
             -e 's/horizon = [0-9]+/horizon = 1/g' "$f" > "$small/$name.toml"
      if grep -q '^\[tune\]' "$f"; then
        "$bin" tune "$small/$name.toml" --quiet --threads 2 --out "$out/tune" > /dev/null
      fi
      if grep -q '^\[ladder\]' "$f"; then
        "$bin" ladder "$small/$name.toml" --quiet --threads 2 --out "$out/ladder" > /dev/null
      fi
    fi
  else
    "$bin" run "$f" --quiet --threads 2 --out "$out/run" > /dev/null
  fi
done
echo "snapshot written to $out"
