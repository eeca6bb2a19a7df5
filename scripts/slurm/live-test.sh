#!/usr/bin/env bash
# The class-scale scripts under a live Slurm: brings up a one-node cluster on this machine
# (munged, slurmctld and slurmd from Debian's slurm-wlm and munge, installed when missing, with
# a generated slurm.conf and a private munge key, all in a temporary folder), submits a
# tournament and the three graders through scripts/slurm/submit.sh and the real sbatch, and
# checks that the merged results equal unsplit runs. A planted failure (one array task
# cancelled while it runs) must leave no report: the merge job is cancelled and a hand-run
# merge names the missing shard; `submit.sh --only` then reruns that shard, which resumes.
# Everything it started is stopped on exit, also on failure. Needs root (CI runs as root).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
slurm="$repo/scripts/slurm"
if [ "$(id -u)" != 0 ]; then
    echo "live Slurm test skipped: it installs and starts daemons, which needs root" >&2
    [ -z "${CI:-}" ] || exit 1
    exit 0
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    echo "== installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
[ -x "$repo/target/release/connect4" ] || cargo build --release --quiet
B="$repo/target/release"

tmp=$(mktemp -d /tmp/slurm-live.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
    set +e
    for f in "$tmp"/slurmd.pid "$tmp"/slurmctld.pid "$tmp"/munge/munged.pid; do
        [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    sleep 1
    for f in "$tmp"/slurmd.pid "$tmp"/slurmctld.pid "$tmp"/munge/munged.pid; do
        [ -s "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
    done
    if [ "${keep:-}" != 1 ]; then rm -rf "$tmp"; fi
}
trap cleanup EXIT
fail() {
    echo "live Slurm test FAILED: $*" >&2
    for log in "$tmp"/log/*.log; do
        echo "--- $log" >&2
        tail -n 20 "$log" >&2
    done
    exit 1
}

# A private munged: its own key, socket and files, run as the munge user.
mkdir -p "$tmp/munge" "$tmp/log" "$tmp/state" "$tmp/spool"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chown -R munge: "$tmp/munge"
chmod 711 "$tmp/munge"
chmod 400 "$tmp/munge/munge.key"
runuser -u munge -- /usr/sbin/munged --key-file="$tmp/munge/munge.key" \
    --socket="$tmp/munge/munge.socket" --pid-file="$tmp/munge/munged.pid" \
    --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed"

# Ports of this cluster's own, free ones picked at random.
port() {
    local p
    while :; do
        p=$((20000 + RANDOM % 20000))
        ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && { echo "$p"; return; }
    done
}
node=$(hostname -s)
mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 2048))
cat >"$tmp/slurm.conf" <<CONF
ClusterName=livetest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(port)
SlurmdPort=$(port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MinJobAge=3600
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=1
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=live Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N "$node" || fail "slurmd did not start"
for _ in $(seq 60); do
    [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
    sleep 1
done
[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] || fail "the node never became idle"
echo "== a one-node Slurm cluster is up: $(sinfo -h -o '%P %D nodes, %c CPUs, %t')"

# The state of a job, while the controller remembers it (MinJobAge above).
state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' '; }
# Waits until a job has left the queue (at most $2 seconds).
wait_job() {
    local waited=0
    while squeue -h -j "$1" 2>/dev/null | grep -q .; do
        sleep 1
        waited=$((waited + 1))
        [ "$waited" -le "${2:-300}" ] || fail "job $1 still queued after ${2:-300} s: $(state "$1")"
    done
}
# `submit.sh` and the ids it printed.
submit() {
    local out
    out=$("$slurm/submit.sh" "$@") || fail "submit.sh $*"
    echo "$out" | sed 's/^/   /'
    array_job=$(echo "$out" | sed -n 's/^array job \([0-9]*\):.*/\1/p')
    merge_job=$(echo "$out" | sed -n 's/^merge job \([0-9]*\):.*/\1/p')
    [ -n "$array_job" ] && [ -n "$merge_job" ] || fail "submit.sh printed no job ids"
}
same() { cmp -s "$1" "$2" || fail "$1 differs from $2"; }

cd "$tmp"
# A class of three: one with this project's own answers, one with some missing or altered,
# one with nothing.
class() {
    local tool=$1
    mkdir -p "class-$tool/ann" "class-$tool/ben/output" "class-$tool/cid"
    cp "$repo/outputs/$tool/output/"* "class-$tool/ann/"
    cp "$repo/outputs/$tool/output/"* "class-$tool/ben/output/"
    local answers=("class-$tool/ben/output/"*)
    rm "${answers[1]}"
    printf 'garbage\n' >"${answers[0]}"
}
for tool in astar-map xiangqi-endgame bait; do class "$tool"; done
grade_args() {
    case "$1" in
        bait) echo "$repo/inputs/bait class-bait --game $repo/inputs/bait/game.txt" ;;
        *) echo "$repo/inputs/$1 class-$1" ;;
    esac
}

echo "== the tournament and the three graders, split in 3 by Slurm and merged"
tour=(--players greedy alphabeta:2 --opponents random alphabeta:1 --rounds 2 --seed 7)
"$B/connect4" tournament "${tour[@]}" --jobs 1 --quiet --out tour-whole >/dev/null
submit tournament "${tour[@]}" --out tour-slurm --shards 3
jobs_to_wait=("$merge_job")
for tool in astar-map xiangqi-endgame bait; do
    # shellcheck disable=SC2046
    "$B/$tool" grade $(grade_args "$tool") --report "$tool-whole.csv" >"$tool-whole.txt"
    # shellcheck disable=SC2046
    submit "$tool" $(grade_args "$tool") --report "$tool-slurm.csv" --shards 3
    jobs_to_wait+=("$merge_job")
done
for job in "${jobs_to_wait[@]}"; do wait_job "$job" 300; done
for job in "${jobs_to_wait[@]}"; do
    [ "$(state "$job")" = "COMPLETED " ] || fail "merge job $job: $(state "$job")"
done
same tour-slurm/games.csv tour-whole/games.csv
same tour-slurm/standings.csv tour-whole/standings.csv
echo "   tournament: $(($(wc -l <tour-slurm/games.csv) - 1)) games, games.csv and standings.csv identical"
for tool in astar-map xiangqi-endgame bait; do
    same "$tool-slurm.csv" "$tool-whole.csv"
    ls "$tool-slurm.csv.parts/logs/"*_3.log >/dev/null || fail "no log of $tool's task 3"
    echo "   $tool grade: $(($(wc -l <"$tool-slurm.csv") - 1)) answers, report identical"
done

echo "== a planted failure: one array task cancelled while it runs"
submit xiangqi-endgame $(grade_args xiangqi-endgame) --report planted.csv --shards 3
for _ in $(seq 600); do
    [ "$(state "${array_job}_2")" = "RUNNING " ] && break
    sleep 0.1
done
[ "$(state "${array_job}_2")" = "RUNNING " ] || fail "task 2 never ran: $(state "${array_job}_2")"
scancel "${array_job}_2"
wait_job "$array_job" 300
wait_job "$merge_job" 60
[ "$(state "$merge_job")" = "CANCELLED " ] || fail "merge job $merge_job: $(state "$merge_job")"
[ ! -e planted.csv ] || fail "a report was written although shard 2 was killed"
echo "   task 2: $(state "${array_job}_2")merge job: $(state "$merge_job")no report"
scontrol show job "$merge_job" | grep -o 'JobState=[^ ]* Reason=[^ ]* Dependency=[^ ]*' | sed 's/^/   scontrol: /'
squeue -h -j "$merge_job" -o '%i %T %r' 2>/dev/null | sed 's/^/   squeue: /' || true
if msg=$("$B/xiangqi-endgame" grade merge planted.csv.parts/part-*.csv --report planted.csv 2>&1); then
    fail "a merge without shard 2 succeeded"
fi
echo "$msg" | grep -q "shard 2/3 missing" || fail "the merge's message does not name shard 2: $msg"
echo "   a merge by hand: $msg"
journal=planted.csv.parts/part-2.csv.journal
if [ -e "$journal" ]; then
    echo "   shard 2's journal holds $(($(wc -l <"$journal") - 1)) verdicts: the rerun resumes from them"
fi
submit xiangqi-endgame $(grade_args xiangqi-endgame) --report planted.csv --shards 3 --only 2
wait_job "$merge_job" 300
[ "$(state "$merge_job")" = "COMPLETED " ] || fail "merge job $merge_job after the rerun: $(state "$merge_job")"
same planted.csv xiangqi-endgame-whole.csv
echo "   shard 2 rerun with --only 2: merged report identical to the unsplit run"
echo "slurm: 1 passed, 0 failed"
