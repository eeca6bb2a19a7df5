#!/usr/bin/env bash
# The cost of each NBoard depth: for every depth of DEPTHS, GAMES games of `othello nboard`
# against OPPONENT (an NBoard command; by default the engine itself) at `set depth D`, from
# seeded 8-ply openings within 2 discs of even (`--balanced 2`, as scripts/ntest-match.sh), one core
# (`taskset -c 1` where it exists), and a Markdown row per depth: moves, mean and slowest move
# (with its empties) of the engine, forfeits, both sides' total thinking time and the engine's
# score; CORE picks another core. Not part of CI: depths 18 to 20 take half an hour and more.
#   scripts/nboard-depths.sh [DEPTHS] [GAMES] [OPPONENT]
#   scripts/nboard-depths.sh "8 12" 10 ../shared/opponents/ntest/ntest.sh
set -euo pipefail
cd "$(dirname "$0")/.."
depths="${1:-$(seq 1 20)}"
games="${2:-20}"
cargo build --release --quiet -p othello
engine="$(pwd)/target/release/othello"
opponent="${3:-$engine nboard}"
pin=()
command -v taskset > /dev/null && pin=(taskset -c "${CORE:-1}")
echo "| depth | games | engine's moves | mean s a move | slowest s (empties) | forfeits | engine's s | opponent's s | engine's score |"
echo "|---|---|---|---|---|---|---|---|---|"
for d in $depths; do
    json=$("${pin[@]}" "$engine" match "nboard:$engine nboard" "nboard:$opponent" \
        --nboard-depth "$d" --games "$games" --jobs 1 --seed 69 --balanced 2 --move-timeout 120 --json)
    python3 -c '
import json, sys
d, r = sys.argv[1], json.loads(sys.argv[2])
t, o = r["thinking_a"], r["thinking_b"]
moves, games, forfeits = t["moves"], r["games"], len(r["forfeits"])
mean = t["total_seconds"] / max(moves, 1)
slowest, empties = t["slowest_seconds"], t["slowest_empties"]
total, other, score = t["total_seconds"], o["total_seconds"], 100 * r["score_rate"]
print(f"| {d} | {games} | {moves} | {mean:.3f} | {slowest:.2f} ({empties}) | {forfeits} | {total:.1f} | {other:.1f} | {score:.1f}% |")
' "$d" "$json"
done
