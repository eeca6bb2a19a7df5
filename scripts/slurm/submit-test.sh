#!/usr/bin/env bash
# Checks that scripts/slurm/submit.sh refuses what it cannot run before submitting or creating
# anything, and never leaves an array job without its merge: against fake `sbatch`, `scancel`
# and `scontrol` that record their calls (the real ones are exercised by live-test.sh). Needs
# the release binaries (cargo build --release).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/input" "$tmp/class/ann"
echo "3 3 1" >"$tmp/input/input_1.txt"
cat >"$tmp/bin/sbatch" <<'SH'
#!/usr/bin/env bash
echo "sbatch $*" >>"$CALLS"
n=$(wc -l <"$CALLS")
[ -n "${FAIL_SBATCH_AT:-}" ] && [ "$n" -ge "$FAIL_SBATCH_AT" ] && { echo "sbatch: error: refused" >&2; exit 1; }
echo "$((100 + n))"
SH
printf '#!/usr/bin/env bash\necho "scancel $*" >>"$CALLS"\n' >"$tmp/bin/scancel"
printf '#!/usr/bin/env bash\necho "MaxArraySize            = 1001"\n' >"$tmp/bin/scontrol"
chmod +x "$tmp/bin/"*
export CALLS="$tmp/calls"
fail() { echo "submit-test: $*" >&2; exit 1; }
# expect CODE TEXT ARGS...: submit.sh exits CODE, says TEXT, and creates nothing (no sbatch call
# unless CODE is 0 or 1).
expect() {
    local code=$1 text=$2
    shift 2
    : >"$CALLS"
    rm -rf "$tmp/out" "$tmp/report.csv.parts"
    set +e
    out=$(cd "$tmp" && PATH="$tmp/bin:$PATH" "$here/submit.sh" "$@" 2>&1)
    rc=$?
    set -e
    [ "$rc" = "$code" ] || fail "$* exited $rc, not $code: $out"
    grep -q -- "$text" <<<"$out" || fail "$*: no \`$text\` in: $out"
    if [ "$code" = 2 ]; then
        [ ! -s "$CALLS" ] || fail "$*: submitted $(cat "$CALLS")"
        [ ! -e "$tmp/out" ] && [ ! -e "$tmp/report.csv.parts" ] || fail "$*: created folders"
    fi
}
expect 2 "more than this cluster's array jobs take (1000" tournament --players greedy --opponents random --out out --shards 100000000000000000000
expect 2 "more than this cluster's array jobs take (1000" tournament --players greedy --opponents random --out out --shards 1000000
expect 2 "there are 3 shards" tournament --players greedy --opponents random --out out --shards 3 --only 9
expect 2 "shard numbers from 1" tournament --players greedy --opponents random --out out --shards 3 --only 0
expect 2 "shard numbers" tournament --players greedy --opponents random --out out --shards 3 --only ,
expect 2 "INPUT missing/in does not exist" astar-map missing/in class --report report.csv --shards 2
expect 2 "CLASS input/input_1.txt is not a folder" astar-map input input/input_1.txt --report report.csv --shards 2
# Without sbatch on PATH: a clear message, nothing created.
: >"$CALLS"
set +e
# (A PATH of the system's commands less Slurm's, so that an installed sbatch is not found.)
mkdir -p "$tmp/no-slurm"
for f in /usr/bin/* /bin/*; do
    case "$(basename "$f")" in s*) case "$(basename "$f")" in sbatch | scancel | scontrol | squeue | srun | sinfo) continue ;; esac ;; esac
    ln -sf "$f" "$tmp/no-slurm/" 2>/dev/null || true
done
out=$(cd "$tmp" && PATH="$tmp/no-slurm" bash "$here/submit.sh" tournament --players greedy --opponents random --out out --shards 2 2>&1)
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "sbatch not found" <<<"$out" && [ ! -e "$tmp/out" ] || fail "without sbatch: $rc $out"
# The merge refused by sbatch: the array job is cancelled.
export FAIL_SBATCH_AT=2
expect 1 "array job 101 cancelled" astar-map input class --report report.csv --shards 2
grep -q "scancel 101" "$CALLS" || fail "the array job was not cancelled: $(cat "$CALLS")"
unset FAIL_SBATCH_AT
# And a good submission: the array, then its merge.
expect 0 "merge job 102" astar-map input class --report report.csv --shards 2
[ "$(grep -c '^sbatch' "$CALLS")" = 2 ] || fail "expected two submissions: $(cat "$CALLS")"
echo "submit-test: every refusal before submitting, and no array without its merge"
