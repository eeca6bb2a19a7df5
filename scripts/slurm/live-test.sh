#!/usr/bin/env bash
# The cluster scripts under a live one-node Slurm on this machine: munged, MariaDB, slurmdbd,
# slurmctld and slurmd (Debian packages, installed when missing) with generated configurations,
# all private to a temporary folder and stopped on exit, failure included. Submits a tournament
# and the three graders through submit.sh and checks the merged results against unsplit runs
# and the states sacct recorded; then plants a failure (an array task cancelled mid-run): no
# report, the merge job cancelled, a hand-run merge naming the shard, `submit.sh --only`
# resuming it. Needs root (CI runs as root). KEEP=1 keeps the folder (logs, configurations).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
slurm="$repo/scripts/slurm"
if [ "$(id -u)" != 0 ]; then
    echo "live Slurm test skipped: it installs and starts daemons, which needs root" >&2
    [ -z "${CI:-}" ] || exit 1
    exit 0
fi
missing=0
for cmd in slurmctld slurmd slurmdbd sbatch sacct munged mariadbd mariadb-install-db; do
    command -v "$cmd" >/dev/null || missing=1
done
if [ "$missing" = 1 ]; then
    echo "== installing slurm-wlm, slurmdbd, munge and mariadb-server"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm slurmdbd munge \
        mariadb-server >/dev/null
fi
[ -x "$repo/target/release/connect4" ] || cargo build --release --quiet
B="$repo/target/release"

tmp=$(mktemp -d /tmp/slurm-live.XXXXXX)
chmod 755 "$tmp"
cleanup() {
    set +e
    daemons=("$tmp"/slurmd.pid "$tmp"/slurmctld.pid "$tmp"/slurmdbd.pid "$tmp"/db/run/mariadb.pid
        "$tmp"/munge/munged.pid)
    for f in "${daemons[@]}"; do
        [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    for _ in $(seq 20); do
        alive=0
        for f in "${daemons[@]}"; do
            [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && alive=1
        done
        [ "$alive" = 0 ] && break
        sleep 0.5
    done
    for f in "${daemons[@]}"; do
        [ -s "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
    done
    if [ "${KEEP:-}" != 1 ]; then rm -rf "$tmp"; fi
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
# A private MariaDB for the accounting (slurmdbd), on loopback.
db_port=$(port)
dbd_port=$(port)
mkdir -p "$tmp/db/data" "$tmp/db/run"
chown -R mysql: "$tmp/db"
mariadb-install-db --datadir="$tmp/db/data" --user=mysql --skip-test-db \
    --auth-root-authentication-method=socket >"$tmp/log/mariadb-install.log" 2>&1 \
    || fail "mariadb-install-db"
mariadbd --no-defaults --datadir="$tmp/db/data" --user=mysql --socket="$tmp/db/run/db.sock" \
    --port="$db_port" --bind-address=127.0.0.1 --skip-name-resolve \
    --pid-file="$tmp/db/run/mariadb.pid" --log-error="$tmp/db/run/mariadb.log" \
    >/dev/null 2>&1 &
for _ in $(seq 60); do
    [ -S "$tmp/db/run/db.sock" ] && break
    sleep 0.5
done
mariadb --no-defaults --socket="$tmp/db/run/db.sock" -u root -e \
    "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'livetest';
     GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" || fail "MariaDB did not start"
cat >"$tmp/slurmdbd.conf" <<CONF
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$dbd_port
SlurmUser=root
PidFile=$tmp/slurmdbd.pid
LogFile=$tmp/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$db_port
StorageUser=slurm
StoragePass=livetest
StorageLoc=slurm_acct_db
CONF
chmod 600 "$tmp/slurmdbd.conf"

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
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=1
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$dbd_port
# (for slurmdbd connections this names the munge socket)
AccountingStoragePass=$tmp/munge/munge.socket
MpiDefault=none
ReturnToService=2
MinJobAge=3600
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=1
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=live Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
# slurmdbd reads slurmdbd.conf beside $SLURM_CONF.
slurmdbd || fail "slurmdbd did not start"
# Its first start creates the database's tables, which takes a while.
for _ in $(seq 180); do
    sacctmgr -i add cluster livetest >/dev/null 2>&1 && break
    sleep 1
done
sacctmgr -n list cluster format=cluster 2>/dev/null | grep -q livetest \
    || fail "slurmdbd does not answer"
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
# Waits until the accounting has recorded `$2` for job `$1` (it lags a moment behind).
wait_acct() {
    for _ in $(seq 60); do
        sacct -n -X -P -j "$1" -o State 2>/dev/null | grep -q "^$2" && return
        sleep 0.5
    done
    fail "sacct never showed job $1 $2: $(sacct -n -X -P -j "$1" -o State 2>&1)"
}
sacct_table() { sacct -j "$1" -o JobID%12,JobName%16,State%10,Elapsed,MaxRSS | sed 's/^/   /'; }

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
    [ "$tool" = xiangqi-endgame ] && xq_jobs="$array_job,$merge_job"
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

wait_acct "${xq_jobs#*,}" COMPLETED
echo "   sacct of the xiangqi-endgame grading:"
sacct_table "$xq_jobs"

echo "== a planted failure: one array task cancelled while it runs"
# Slice 1 of the seven boards in three: it journals six verdicts, then spends seconds on board 7.
submit xiangqi-endgame $(grade_args xiangqi-endgame) --report planted.csv --shards 3
journal=planted.csv.parts/part-1.csv.journal
for _ in $(seq 600); do
    [ -e "$journal" ] && [ "$(wc -l <"$journal")" -ge 2 ] && break
    sleep 0.1
done
[ "$(state "${array_job}_1")" = "RUNNING " ] || fail "task 1 is not running: $(state "${array_job}_1")"
scancel "${array_job}_1"
wait_job "$array_job" 300
wait_job "$merge_job" 60
[ "$(state "$merge_job")" = "CANCELLED " ] || fail "merge job $merge_job: $(state "$merge_job")"
[ ! -e planted.csv ] || fail "a report was written although shard 1 was killed"
echo "   task 1: $(state "${array_job}_1")merge job: $(state "$merge_job")no report"
wait_acct "$merge_job" CANCELLED
wait_acct "${array_job}_1" CANCELLED
echo "   sacct:"
sacct_table "$array_job,$merge_job"
if msg=$("$B/xiangqi-endgame" grade merge planted.csv.parts/part-*.csv --report planted.csv 2>&1); then
    fail "a merge without shard 1 succeeded"
fi
echo "$msg" | grep -q "shard 1/3 missing" || fail "the merge's message does not name shard 1: $msg"
echo "   a merge by hand: $msg"
[ -e "$journal" ] || fail "the killed task left no journal"
echo "   shard 1's journal holds $(($(wc -l <"$journal") - 1)) verdicts"
submit xiangqi-endgame $(grade_args xiangqi-endgame) --report planted.csv --shards 3 --only 1
wait_job "$merge_job" 300
[ "$(state "$merge_job")" = "COMPLETED " ] || fail "merge job $merge_job after the rerun: $(state "$merge_job")"
log="planted.csv.parts/logs/xiangqi-endgame-${array_job}_1.log"
grep -q "going on from" "$log" || fail "the rerun did not resume: $(cat "$log")"
same planted.csv xiangqi-endgame-whole.csv
[ ! -e "$journal" ] || fail "the journal outlived the rerun"
echo "   rerun with --only 1: $(grep "going on from" "$log")"
echo "   merged report identical to the unsplit run"
echo "slurm: 1 passed, 0 failed"
