#!/usr/bin/env bash
# This engine (`xiangqi-endgame uci`) against Fairy-Stockfish (Debian's `fairy-stockfish`,
# installed with apt-get when it is missing; see ../shared/opponents/README.md): PAIRS pairs of
# games at MS milliseconds a move from seeded random openings, colours swapped, each engine on
# its own core (`taskset -c 0` and `-c 1` where it exists), refereed by the tool's own rules.
# The openings are master games' (8 to 12 plies, every position once) when the collection is at
# ../shared/data/xiangqi/games (OPENINGS names another PGN file or folder; OPENINGS= random
# plies instead).
# Prints the score with its 95% interval and Elo, the same with the games decided by the
# perpetual-check rule counted as draws (Fairy-Stockfish 11.1 does not know the rule), and each
# side's answer times (the slowest, and how many came more than 50 ms late); the games go to
# target/fairy-MS-sSEED.pgn and .jsonl, rewritten as the games finish (every 5 s at most).
# Not part of CI.
#   scripts/fairy-stockfish-match.sh [MS] [PAIRS] [SEED] [ENGINE ARGS...]
#   scripts/fairy-stockfish-match.sh 300 100 63
#   scripts/fairy-stockfish-match.sh 300 10 63 --eval course
set -euo pipefail
cd "$(dirname "$0")/.."
ms="${1:-300}"
pairs="${2:-100}"
seed="${3:-63}"
shift $(($# < 3 ? $# : 3))
fairy="$(command -v fairy-stockfish || true)"
[ -z "$fairy" ] && [ -x /usr/games/fairy-stockfish ] && fairy=/usr/games/fairy-stockfish
if [ -z "$fairy" ]; then
    echo "fairy-stockfish-match: installing Debian's fairy-stockfish" >&2
    if [ "$(id -u)" = 0 ]; then apt-get install -y fairy-stockfish > /dev/null; else sudo apt-get install -y fairy-stockfish > /dev/null; fi
    fairy=/usr/games/fairy-stockfish
fi
cargo build --release --quiet -p xiangqi-endgame
engine="$(pwd)/target/release/xiangqi-endgame"
pin0=() pin1=()
if command -v taskset > /dev/null; then pin0=(taskset -c 0) pin1=(taskset -c 1); fi
openings="${OPENINGS-../shared/data/xiangqi/games}"
starts=()
[ -n "$openings" ] && [ -e "$openings" ] && starts=(--openings "$openings" --opening-plies 8-12)
"$engine" match --a "uci:${pin0[*]} $engine uci $*" --b "uci:${pin1[*]} $fairy" "${starts[@]}" \
    --b-option UCI_Variant=xiangqi --b-option Threads=1 --b-option Hash=16 \
    --pairs "$pairs" --movetime-ms "$ms" --seed "$seed" \
    --games "target/fairy-$ms-s$seed.jsonl" --pgn "target/fairy-$ms-s$seed.pgn"
