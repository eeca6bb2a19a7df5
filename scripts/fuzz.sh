#!/usr/bin/env bash
# Longer fuzzing of every parser: the tools' tests/fuzz.rs (arbitrary text and mutated valid
# files: astar maps, xiangqi board files and FEN, OBF lines and timing jobs, getPoint requests,
# Saiblo streams and 7x6 move strings, Bait levels and VGDL descriptions; whole NBoard and UCI
# sessions with bad bytes and over-long lines; tournament journals and shards, grading parts
# and journals; the playground's endpoints with arbitrary and mutated bodies and queries), run again and again
# with fresh random seeds, each parser's tests for an equal share of SECONDS (default 600).
# Exits 1 on the first finding, printing proptest's minimal failing input.
#   scripts/fuzz.sh 600
set -uo pipefail
cd "$(dirname "$0")/.."
duration="${1:-600}"
case "$duration" in
    '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;;
esac
crates=(batch astar-map xiangqi-endgame othello connect4 bait playground)
for c in "${crates[@]}"; do
    cargo test -q -p "$c" --test fuzz --no-run 2>/dev/null || { echo "build failed: $c" >&2; exit 1; }
done
cases="${FUZZ_CASES:-5000}"
share=$((duration / ${#crates[@]}))
[ "$share" -gt 0 ] || share=1
runs=0
for c in "${crates[@]}"; do
    # Each parser's tests get an equal share of the time, run after run with fresh seeds.
    end=$((SECONDS + share))
    while [ "$SECONDS" -lt "$end" ]; do
        out=$(FUZZ_CASES="$cases" timeout "$((end - SECONDS))" cargo test -q -p "$c" --test fuzz 2>&1)
        rc=$?
        if [ "$rc" = 124 ]; then
            break # its time is up in the middle of a run: not a finding
        elif [ "$rc" != 0 ]; then
            echo "$out" | grep -E "panicked|minimal failing|Test failed" >&2
            echo "fuzz: finding in $c" >&2
            exit 1
        fi
        runs=$((runs + 1))
    done
    echo "fuzz: $c: ${share} s, ok"
done
echo "fuzz: $runs runs of $cases cases per test in $duration s, no finding"
