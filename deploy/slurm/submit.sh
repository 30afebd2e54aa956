#!/usr/bin/env bash
# Submits an alea run as a Slurm job array of N shards and a merge that starts when they all
# succeed; prints the two job ids.
#
#   deploy/slurm/submit.sh 4 run experiments/ror-treasury-sweep.toml --games 100000
#   deploy/slurm/submit.sh 8 ladder experiments/ror-ladder.toml
#
# The merged files land in <out>/<name>/ (--out, default out), the shards in <out>/<name>/shards/.
# <name> is the file's `name = "..."`, else its stem (set NAME= to override). Extra sbatch options
# go in SBATCH_OPTIONS (e.g. SBATCH_OPTIONS="--partition=long --time=2:00:00"). Set ALEA to the
# binary if it is not on the PATH of the compute nodes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ $# -lt 3 ]; then
    echo "usage: $0 N run|ladder EXPERIMENT [alea options]" >&2
    exit 2
fi
n=$1
command=$2
experiment=$3
shift 3
case $n in
    '' | *[!0-9]* | 0) echo "$0: N must be a whole number of shards, 1 or more (got '$n')" >&2; exit 2 ;;
esac
out=out
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    if [ "${args[$i]}" = --out ] && [ $((i + 1)) -lt ${#args[@]} ]; then
        out=${args[$((i + 1))]}
    fi
done
name=${NAME:-$(sed -n 's/^name *= *"\([^"]*\)".*/\1/p' "$experiment" | head -n 1)}
name=${name:-$(basename "$experiment" .toml)}

# shellcheck disable=SC2086 # SBATCH_OPTIONS is a list of options
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array=0-$((n - 1)) \
    "$here/shard.sbatch" "$command" "$experiment" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency=afterok:"$array" \
    "$here/merge.sbatch" "$out/$name/shards" "$n" --out "$out")
merge=${merge%%;*}
echo "shards: job $array (array of $n), merge: job $merge → $out/$name/"
