#!/usr/bin/env bash
# The real thing: a single-node Slurm cluster on this machine runs a small game experiment as a job
# array of 4 shards (deploy/slurm/shard.sbatch) and the merge that depends on it
# (deploy/slurm/merge.sbatch, --dependency=afterok); the merged summary.json, summary.csv,
# endings.csv and games.parquet must be byte for byte those of a single-machine run.
#
# Needs root (it installs Debian's slurm-wlm and munge with apt-get if missing, and runs the
# daemons as root). Everything else lives in a temporary folder: a generated munge key and socket,
# slurm.conf, state and spool folders, logs. The daemons it starts are stopped by their process
# ids when it exits. If they cannot start, it says why and fails: it never skips.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
started=$(date +%s)
say() { echo "slurm test: $*"; }
fail() { echo "slurm test: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root, to install slurm-wlm and munge and run slurmctld/slurmd as SlurmUser=root"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
    say "installing slurm-wlm and munge (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || fail "apt-get update failed"
    apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null || fail "apt-get install slurm-wlm munge failed"
fi
say "$(slurmctld -V), $(munged -V 2>&1 | head -n 1)"

say "building the release binary"
(cd "$repo" && cargo build --release --quiet) || fail "cargo build --release failed"
alea=$repo/target/release/alea

tmp=$(mktemp -d /tmp/alea-slurm.XXXXXX)
pids=()
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    if [ "$status" = 0 ]; then
        rm -rf "$tmp"
    else
        echo "slurm test: logs kept in $tmp" >&2
    fi
}
trap cleanup EXIT

# --- munge: a key of its own and a socket in the temporary folder --------------------------------
mkdir -p "$tmp/munge"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/munged.seed" >"$tmp/munge/stdout.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
    [ -S "$socket" ] && break
    kill -0 "${pids[-1]}" 2>/dev/null || fail "munged exited at start: $(tail -n 5 "$tmp/munge/munged.log" "$tmp/munge/stdout.log" 2>/dev/null)"
    sleep 0.1
done
[ -S "$socket" ] || fail "munged did not open its socket $socket within 5 s"
echo test | munge --socket="$socket" | unmunge --socket="$socket" >/dev/null || fail "munge cannot encode and decode a credential"

# --- slurm.conf: one node, this machine ---------------------------------------------------------
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool"
conf=$tmp/slurm.conf
cat >"$conf" <<CONF
ClusterName=alea-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf

slurmctld -D -i -f "$conf" >"$tmp/slurmctld.stdout" 2>&1 &
pids+=($!)
ctld=$!
slurmd -D -f "$conf" >"$tmp/slurmd.stdout" 2>&1 &
pids+=($!)
slurmd_pid=$!
ready=
for _ in $(seq 60); do
    kill -0 "$ctld" 2>/dev/null || fail "slurmctld exited at start: $(tail -n 5 "$tmp/slurmctld.log" "$tmp/slurmctld.stdout" 2>/dev/null)"
    kill -0 "$slurmd_pid" 2>/dev/null || fail "slurmd exited at start: $(tail -n 5 "$tmp/slurmd.log" "$tmp/slurmd.stdout" 2>/dev/null)"
    if [ "$(sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ]; then
        ready=1
        break
    fi
    sleep 0.5
done
[ -n "$ready" ] || fail "node $host did not become idle in 30 s: $(sinfo 2>&1 | tail -n 3); $(tail -n 5 "$tmp/slurmctld.log")"
say "cluster up: slurmctld pid $ctld, slurmd pid $slurmd_pid, node $host with $cpus CPUs"

# --- the experiment: a small game sweep, 4 cases ------------------------------------------------
experiment=$tmp/slurm-game.toml
cat >"$experiment" <<'TOML'
name = "slurm-game"
games = 600
seed = 11
[game]
ruleset = "republica-de-roma"
scenario = "scenarios/republica-de-roma/early-republic.toml"
turn_cap = 40
[game.policies]
default = "cooperative"
faction_4 = "competitive"
[[sweep]]
field = "starting_treasury"
values = [50, 100, 150, 200]
TOML
out=$tmp/out
export ALEA=$alea
array=$(sbatch --parsable --array=0-3 --chdir="$repo" --output="$tmp/shard-%a.out" \
    "$repo/deploy/slurm/shard.sbatch" run "$experiment" --out "$out") || fail "sbatch of the shard array failed"
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" --chdir="$repo" --output="$tmp/merge.out" \
    "$repo/deploy/slurm/merge.sbatch" "$out/slurm-game/shards" 4 --out "$out") || fail "sbatch of the merge failed"
merge=${merge%%;*}
say "submitted the shard array (job $array, tasks 0-3) and the merge (job $merge, afterok:$array)"

state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' '; }
for _ in $(seq 240); do
    if [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ]; then
        break
    fi
    case $(state "$array") in
        # The merge would wait forever on a dependency that can no longer be met.
        *FAILED* | *CANCELLED* | *TIMEOUT* | *NODE_FAIL* | *OUT_OF_MEMORY*)
            fail "a shard task ended $(state "$array"): $(cat "$tmp"/shard-*.out 2>/dev/null)" ;;
    esac
    sleep 0.5
done
[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] || fail "jobs still queued or running after 120 s: $(squeue 2>&1)"
shards_state=$(state "$array")
merge_state=$(state "$merge")
say "shard tasks: $shards_state; merge: $merge_state"
[ "$shards_state" = "COMPLETED " ] || fail "the shard tasks did not all complete: $(cat "$tmp"/shard-*.out 2>/dev/null)"
[ "$merge_state" = "COMPLETED " ] || fail "the merge did not complete: $(cat "$tmp/merge.out" 2>/dev/null)"
for k in 1 2 3 4; do
    [ -f "$out/slurm-game/shards/$k-of-4/shard.json" ] || fail "shard $k-of-4 has no shard.json"
done

# --- the same run on one machine, compared byte for byte ------------------------------------------
(cd "$repo" && "$alea" run "$experiment" --out "$tmp/single" --quiet >/dev/null) || fail "the single-machine run failed"
for f in summary.json summary.csv endings.csv games.parquet; do
    cmp "$tmp/single/slurm-game/$f" "$out/slurm-game/$f" || fail "$f of the merged shards differs from the single run's"
done
say "merged summary.json, summary.csv, endings.csv, games.parquet identical to the single-machine run"
say "passed in $(($(date +%s) - started)) s"
