#!/usr/bin/env bash
# Compares two snapshots from scripts/snapshot-outputs.sh byte for byte (tables, parquet, charts,
# JSON), apart from the JSON lines that record the version or how fast a run went. Exit 0 when identical.
set -euo pipefail
a=$1; b=$2
# Lines that record when or how fast, not what: dropped before comparing.
volatile='"(alea_version|wall_time_seconds|games_per_second|trials_per_second)"'
status=0
while IFS= read -r -d '' f; do
  rel=${f#"$a"/}
  g="$b/$rel"
  if [ ! -e "$g" ]; then echo "only in $a: $rel"; status=1; continue; fi
  case "$f" in
    *.json) if ! diff -q <(grep -Ev "$volatile" "$f") <(grep -Ev "$volatile" "$g") > /dev/null; then
              echo "differs: $rel"; { diff <(grep -Ev "$volatile" "$f") <(grep -Ev "$volatile" "$g") || true; } | head -5; status=1; fi ;;
    *) if ! cmp -s "$f" "$g"; then echo "differs: $rel"; status=1; fi ;;
  esac
done < <(find "$a" -type f -print0 | sort -z)
while IFS= read -r -d '' g; do
  rel=${g#"$b"/}
  [ -e "$a/$rel" ] || { echo "only in $b: $rel"; status=1; }
done < <(find "$b" -type f -print0 | sort -z)
[ $status = 0 ] && echo "identical: $(find "$a" -type f | wc -l) files"
exit $status
