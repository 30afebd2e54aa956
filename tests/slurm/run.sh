#!/usr/bin/env bash
# The real thing: a single-node Slurm cluster on this machine runs a small game experiment and a
# Monte Carlo battle sweep, each as job arrays of 1, 2 and 4 shards (deploy/slurm/shard.sbatch)
# with the merge that depends on each (deploy/slurm/merge.sbatch, --dependency=afterok); the merged
# tables must be byte for byte those of a single-machine run.
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

# --- the experiments: a small game sweep and a Monte Carlo battle sweep ------------------------------
cat >"$tmp/slurm-game.toml" <<'TOML'
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
cat >"$tmp/slurm-battle.toml" <<'TOML'
name = "slurm-battle"
method = "monte-carlo"
trials = 40000
seed = 12
[battle]
ruleset = "mare-nostrum"
battle = "field"
attacker = { infantry = 6, cavalry = 2, leader = 1 }
defender = { infantry = 8, leader = 0 }
[[sweep]]
field = "attacker.infantry"
values = [2, 9, 17]
TOML
export ALEA=$alea
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' '; }

# Submits NAME's experiment as an array of N shards and the merge that waits on it, then compares
# the merged FILES with the single-machine run in $tmp/single.
on_the_cluster() {
    local name=$1 n=$2
    shift 2
    local out=$tmp/out-$name-$n array merge
    array=$(sbatch --parsable --array=0-$((n - 1)) --chdir="$repo" --output="$tmp/$name-$n-shard-%a.out" \
        "$repo/deploy/slurm/shard.sbatch" run "$tmp/$name.toml" --out "$out") || fail "sbatch of the $name shard array failed"
    array=${array%%;*}
    merge=$(sbatch --parsable --dependency=afterok:"$array" --chdir="$repo" --output="$tmp/$name-$n-merge.out" \
        "$repo/deploy/slurm/merge.sbatch" "$out/$name/shards" "$n" --out "$out") || fail "sbatch of the $name merge failed"
    merge=${merge%%;*}
    say "$name, $n shard(s): array job $array (tasks 0-$((n - 1))), merge job $merge (afterok:$array)"
    for _ in $(seq 240); do
        [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break
        case $(job_state "$array") in
            # The merge would wait forever on a dependency that can no longer be met.
            *FAILED* | *CANCELLED* | *TIMEOUT* | *NODE_FAIL* | *OUT_OF_MEMORY*)
                fail "a $name shard task ended $(job_state "$array"): $(cat "$tmp/$name-$n"-shard-*.out 2>/dev/null)" ;;
        esac
        sleep 0.5
    done
    [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] || fail "$name jobs still queued or running after 120 s: $(squeue 2>&1)"
    [ "$(job_state "$array")" = "COMPLETED " ] || fail "the $name shard tasks did not all complete: $(cat "$tmp/$name-$n"-shard-*.out 2>/dev/null)"
    [ "$(job_state "$merge")" = "COMPLETED " ] || fail "the $name merge did not complete: $(cat "$tmp/$name-$n-merge.out" 2>/dev/null)"
    for k in $(seq 1 "$n"); do
        [ -f "$out/$name/shards/$k-of-$n/shard.json" ] || fail "$name shard $k-of-$n has no shard.json"
    done
    for f in "$@"; do
        cmp "$tmp/single/$name/$f" "$out/$name/$f" || fail "$name/$f merged from $n shard(s) differs from the single run's"
    done
    say "$name, $n shard(s): merged $* identical to the single-machine run"
}

# --- the same runs on one machine, then on the cluster in 1, 2 and 4 shards ----------------------
for name in slurm-game slurm-battle; do
    (cd "$repo" && "$alea" run "$tmp/$name.toml" --out "$tmp/single" --quiet >/dev/null) || fail "the single-machine run of $name failed"
done
for n in 1 2 4; do
    on_the_cluster slurm-game "$n" summary.json summary.csv endings.csv games.parquet
    on_the_cluster slurm-battle "$n" summary.csv results.parquet distributions.parquet
done
say "passed in $(($(date +%s) - started)) s"
