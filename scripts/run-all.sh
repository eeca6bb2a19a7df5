#!/usr/bin/env bash
# The main job: build in release, run every tool's batch form on its bundled inputs/<tool>/
# (`<tool> run inputs/<tool> -o outputs/<tool>/output`), then print one row per tool: input
# files, ok/failed, time. Exits 1 if any tool failed. The outputs are reproducible: running the
# job twice leaves `git status` clean.
#   scripts/run-all.sh           # all five tools, a few seconds after the build
#   scripts/run-all.sh --full    # also the heavier jobs: othello's timing table to depth 6,
#                                # bait's provably highest-scoring plans (written to outputs/<tool>/full/)
set -uo pipefail
cd "$(dirname "$0")/.."
full=0
case "${1:-}" in
    "") ;;
    --full) full=1 ;;
    *) echo "usage: scripts/run-all.sh [--full]" >&2; exit 2 ;;
esac
# The build (about five minutes the first time) shows cargo's own progress.
echo "run-all: building the tools in release" >&2
cargo build --release --workspace --bins || exit 1
bin=target/release
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
failed=0

# row TOOL LABEL COMMAND...: runs the command, reads its closing summary line
# (`N files: N ok` or `N files: K ok, M failed`) and prints the tool's row.
row() {
    local tool=$1 label=$2
    shift 2
    local start end rc summary files ok bad status
    start=$(date +%s%N)
    "$@" >"$logs/$label.out" 2>"$logs/$label.err"
    rc=$?
    end=$(date +%s%N)
    summary=$(grep -E '^[0-9]+ files?: ' "$logs/$label.out" | tail -n 1)
    files=$(sed -E 's/^([0-9]+) files?: .*/\1/' <<<"$summary")
    ok=$(sed -E 's/.*: ([0-9]+) ok.*/\1/' <<<"$summary")
    bad=$(sed -nE 's/.*, ([0-9]+) failed.*/\1/p' <<<"$summary")
    if [ "$rc" = 0 ] && [ -n "$summary" ]; then
        status=ok
    else
        status=FAILED
        failed=1
        sed 's/^/    /' "$logs/$label.err" | tail -n 5
    fi
    printf '%-24s %5s %5s %6s %9d ms  %s\n' "$label" "${files:--}" "${ok:--}" "${bad:-0}" \
        $(((end - start) / 1000000)) "$status"
}

printf '%-24s %5s %5s %6s %12s  %s\n' tool files ok failed time result
for tool in astar-map xiangqi-endgame othello connect4 bait; do
    row "$tool" "$tool" "$bin/$tool" run "inputs/$tool" -o "outputs/$tool/output"
done
if [ "$full" = 1 ]; then
    job="$logs/timing-6.timing"
    printf 'depths 1,2,3,4,5,6\ngames 1\n' >"$job"
    row othello "othello (timing, d<=6)" "$bin/othello" run "$job" -o outputs/othello/full
    row bait "bait (max-score plans)" "$bin/bait" solve inputs/bait --objective max-score -o outputs/bait/full
fi
echo "outputs: outputs/<tool>/output/ (one file per input; the tools' own messages were not shown)"
exit "$failed"
