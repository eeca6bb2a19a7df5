#!/usr/bin/env bash
# This engine (`othello nboard`) against NTest (../shared/opponents/ntest) through NBoard at one
# `set depth`: GAMES games from seeded 8-ply openings within 2 discs of even (`--balanced 2`),
# all different, colours swapped, both engines on one core (`taskset -c 1` where it exists;
# CORE picks another), the summary with each side's thinking time, and the games as GGF in
# target/ntest-dDEPTH-sSEED.ggf. Not part of CI.
#   scripts/ntest-match.sh [DEPTH] [GAMES] [SEED] [ENGINE ARGS...]
#   scripts/ntest-match.sh 12 100 66
#   scripts/ntest-match.sh 8 200 12 --probcut 0     # the full-width search
set -euo pipefail
cd "$(dirname "$0")/.."
depth="${1:-8}"
games="${2:-100}"
seed="${3:-12}"
shift $(($# < 3 ? $# : 3))
ntest="$(pwd)/../shared/opponents/ntest/ntest.sh"
if [ ! -x "$ntest" ]; then
    echo "ntest-match: no NTest at $ntest (see ../shared/opponents/README.md)" >&2
    exit 2
fi
cargo build --release --quiet -p othello
engine="$(pwd)/target/release/othello"
pin=()
command -v taskset > /dev/null && pin=(taskset -c "${CORE:-1}")
"${pin[@]}" "$engine" match "nboard:$engine nboard $*" "nboard:$ntest" \
    --nboard-depth "$depth" --games "$games" --jobs 1 --seed "$seed" --balanced 2 \
    --ggf "target/ntest-d$depth-s$seed.ggf"
