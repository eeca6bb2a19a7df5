#!/usr/bin/env bash
# Submits class-scale work to Slurm: an array job with one task per shard, and the merge as a
# job that runs only when every task has succeeded (it is cancelled if one fails). Prints the
# two job ids.
#
#   scripts/slurm/submit.sh tournament --players ... --opponents ... [--rounds R --seed S
#       --time-ms MS --jobs J] --out DIR --shards N [--only I,J]
#   scripts/slurm/submit.sh astar-map|xiangqi-endgame|bait INPUT CLASS [--report ALL.csv]
#       [grade options] --shards N [--only I,J]
#
# --only reruns some shards of the same command (after a failure: each resumes from its
# journal) and submits the merge again.
# The merge leaves DIR/games.csv and DIR/standings.csv (tournament; shards in DIR/shard-I) or
# the report (grading; parts in REPORT.parts/). Logs: one per task in DIR/logs or
# REPORT.parts/logs. Binaries come from this repository's target/release when it is built,
# else from PATH; folders must be on a file system every node sees. SBATCH_OPTS adds sbatch
# options (for example "--partition=short --time=2:00:00"). Everything is checked before
# anything is submitted or created (the shard count against the cluster's MaxArraySize, --only's
# shards, the input and class folders, sbatch itself); if the merge cannot be submitted, the
# array job is cancelled, so that no array runs without its merge.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ -d "$repo/target/release" ] && PATH="$repo/target/release:$PATH"
usage() {
    sed -n '6,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
[ $# -gt 0 ] || usage
kind="$1"
shift
shards="" only="" out="" report="grades.csv" jobs=1
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --shards) shards="${2:-}"; shift 2 || usage ;;
        --only) only="${2:-}"; shift 2 || usage ;;
        --out) out="${2:-}"; shift 2 || usage ;;
        --report) report="${2:-}"; shift 2 || usage ;;
        --jobs) jobs="${2:-}"; shift 2 || usage ;;
        --shard | --resume)
            echo "submit.sh: $1 is set per task by the array job; leave it out" >&2
            exit 2
            ;;
        *) args+=("$1"); shift ;;
    esac
done
command -v sbatch >/dev/null || { echo "submit.sh: sbatch not found: this needs a Slurm cluster's login node" >&2; exit 2; }
# The most shards an array may have here: the cluster's MaxArraySize less one (1001 by default).
max_shards=1000
if size=$(scontrol show config 2>/dev/null | sed -n 's/^MaxArraySize *= *\([0-9]*\).*/\1/p') && [ -n "$size" ]; then
    max_shards=$((size - 1))
fi
# check_number VALUE MAX TOO_SMALL TOO_LARGE: a number from 1 to MAX (no leading zero), or
# the message for the case and exit 2.
check_number() {
    case "$1" in
        '' | *[!0-9]* | 0*) echo "submit.sh: $3" >&2; exit 2 ;;
    esac
    if [ "${#1}" -gt 6 ] || [ "$1" -gt "$2" ]; then
        echo "submit.sh: $4" >&2
        exit 2
    fi
}
check_number "$shards" "$max_shards" "--shards N (a positive number) is required" \
    "--shards $shards is more than this cluster's array jobs take ($max_shards, its MaxArraySize less one)"
if [ -n "$only" ]; then
    IFS=, read -r -a picked <<<"$only"
    [ "${#picked[@]}" -gt 0 ] && [ "${only%,}" = "$only" ] || { echo "submit.sh: --only takes shard numbers, like 2 or 2,5" >&2; exit 2; }
    for i in "${picked[@]}"; do
        check_number "$i" "$shards" "--only takes shard numbers from 1, like 2 or 2,5 (not \`$i')" \
            "--only $i: there are $shards shards"
    done
fi
case "$jobs" in
    '' | *[!0-9]* | 0) echo "submit.sh: --jobs takes a positive number" >&2; exit 2 ;;
esac
extra=()
read -r -a extra <<<"${SBATCH_OPTS:-}"

case "$kind" in
    tournament)
        [ -n "$out" ] || { echo "submit.sh: tournament needs --out DIR" >&2; exit 2; }
        bin=$(command -v connect4) || { echo "submit.sh: connect4 not built (cargo build --release)" >&2; exit 2; }
        out=$(realpath -m "$out")
        logs="$out/logs"
        mkdir -p "$logs"
        array=(--cpus-per-task="$jobs" --mem-per-cpu=1200M
            "$here/connect4-tournament.sbatch" "$out" "$shards" "${args[@]}")
        merge=("$bin" tournament merge)
        for i in $(seq 1 "$shards"); do merge+=("$out/shard-$i"); done
        merge+=(--out "$out")
        result="$out/games.csv and $out/standings.csv"
        export CONNECT4="$bin"
        ;;
    astar-map | xiangqi-endgame | bait)
        [ -z "$out" ] || { echo "submit.sh: grading writes --report, not --out" >&2; exit 2; }
        [ "$jobs" = 1 ] || { echo "submit.sh: --jobs is for tournaments" >&2; exit 2; }
        [ "${#args[@]}" -ge 2 ] || { echo "submit.sh: $kind needs INPUT and CLASS" >&2; exit 2; }
        [ -e "${args[0]}" ] || { echo "submit.sh: INPUT ${args[0]} does not exist" >&2; exit 2; }
        [ -d "${args[1]}" ] || { echo "submit.sh: CLASS ${args[1]} is not a folder" >&2; exit 2; }
        bin=$(command -v "$kind") || { echo "submit.sh: $kind not built (cargo build --release)" >&2; exit 2; }
        report=$(realpath -m "$report")
        [ -d "$(dirname "$report")" ] || { echo "submit.sh: --report $report: its folder does not exist; create it first" >&2; exit 2; }
        parts="$report.parts"
        logs="$parts/logs"
        mkdir -p "$logs"
        # Memory per task: the grader's searches (xiangqi's table, bait's proven optima).
        case "$kind" in
            astar-map) mem=512M ;;
            xiangqi-endgame) mem=1G ;;
            bait) mem=2G ;;
        esac
        array=(--mem="$mem" "$here/grade.sbatch" "$bin" "$parts" "$shards" "${args[@]}")
        merge=("$bin" grade merge)
        for i in $(seq 1 "$shards"); do merge+=("$parts/part-$i.csv"); done
        merge+=(--report "$report")
        result="$report"
        ;;
    *) usage ;;
esac

array_job=$(sbatch --parsable --job-name="$kind" --array="${only:-1-$shards}" \
    --output="$logs/%x-%A_%a.log" "${extra[@]}" "${array[@]}")
array_job=${array_job%%;*}
if ! merge_job=$(sbatch --parsable --job-name="$kind-merge" --dependency="afterok:$array_job" \
    --kill-on-invalid-dep=yes --output="$logs/%x-%j.log" "${extra[@]}" \
    "$here/merge.sbatch" "${merge[@]}"); then
    scancel "$array_job" 2>/dev/null || true
    echo "submit.sh: the merge job could not be submitted; array job $array_job cancelled (nothing runs without its merge)" >&2
    exit 1
fi
merge_job=${merge_job%%;*}
echo "array job $array_job: shards ${only:-1-$shards} of $shards of $kind, logs in $logs"
echo "merge job $merge_job: writes $result once every shard has succeeded"
