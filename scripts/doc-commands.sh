#!/usr/bin/env bash
# Runs the commands shown in the documentation, as written, so that none goes stale: every line
# of every fenced ```sh block of README.md and docs/*.md (or the files given) is one command,
# run with the release binaries on PATH in a scratch folder holding a copy of inputs/ (so
# nothing is written into the repository), standard input closed, 120 s at most.
# A block opened as ```sh slow (or interactive, build, ...) is shown but not run here: any word
# after `sh` names why; such commands are counted as skipped.
# Prints PASS/FAIL per command, then "docs: N passed, M failed, K skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
[ $# -gt 0 ] || set -- README.md docs/*.md
cargo build --release --quiet --workspace --bins || exit 1
export PATH="$repo/target/release:$PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
skip=0
for doc in "$@"; do
    # One record per command: FILE:LINE <tab> run|skip <tab> command (continuation lines joined).
    records=$(awk -v f="$doc" '
        /^```/ {
            if (inblock) { inblock = 0; next }
            if ($0 ~ /^```sh( |$)/) { inblock = 1; mode = ($0 ~ /^```sh *$/) ? "run" : "skip" }
            else { other = !other }
            next
        }
        inblock && !/^[[:space:]]*(#|$)/ {
            if (cont == "") start = NR
            line = $0
            if (sub(/\\$/, "", line)) { cont = cont line " "; next }
            printf "%s:%d\t%s\t%s\n", f, start, mode, cont line
            cont = ""
        }' "$doc")
    [ -n "$records" ] || continue
    # A fresh scratch folder per document: commands of one page may use each other's files.
    rm -rf "$work/cwd"
    mkdir -p "$work/cwd"
    cp -r "$repo/inputs" "$work/cwd/inputs"
    while IFS=$'\t' read -r where mode cmd; do
        if [ "$mode" = skip ]; then
            skip=$((skip + 1))
            echo "SKIP $where: $cmd"
            continue
        fi
        if (cd "$work/cwd" && timeout 120 bash -c "$cmd" </dev/null >"$work/out" 2>"$work/err"); then
            pass=$((pass + 1))
            echo "PASS $where: $cmd"
        else
            fail=$((fail + 1))
            echo "FAIL $where: $cmd"
            tail -n 5 "$work/err" | sed 's/^/    /'
        fi
    done <<<"$records"
done
echo "docs: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
