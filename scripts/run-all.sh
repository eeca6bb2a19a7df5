#!/usr/bin/env bash
# The main job: build in release and run every tool on its bundled inputs/<binary>/, writing
# outputs/<binary>/, then print a summary table.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --workspace --bins
bin=target/release
printf '%-18s %-8s %s\n' tool files "result"
for tool in astar-map xiangqi-endgame othello connect4 bait; do
    [ -x "$bin/$tool" ] && [ -d "inputs/$tool" ] || continue
    mkdir -p "outputs/$tool"
    start=$(date +%s%N)
    if summary=$("$bin/$tool" run "inputs/$tool" -o "outputs/$tool/output" 2>&1 | tail -n 1); then
        status=ok
    else
        status=FAILED
    fi
    end=$(date +%s%N)
    printf '%-18s %-8s %s (%s, %d ms)\n' "$tool" "$(ls "inputs/$tool" | wc -l)" "$summary" "$status" $(((end - start) / 1000000))
done
